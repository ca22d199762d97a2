"""A curator pass: load, plan, apply, report; the pass lock."""
