"""The audit trail: the trailer vocabulary, its writers and readers, passes found in history."""
