"""A curator pass: load, plan, apply, report; the schedule of automatic passes."""
