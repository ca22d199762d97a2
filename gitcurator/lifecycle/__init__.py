"""The deterministic lifecycle: rules and the pass plan (pure), inventory rows, skill history,
schedule rules and the pass report (pure)."""
