#!/usr/bin/env python3
"""Extract tables from a PDF into CSV files."""
import sys
print("extracting", sys.argv[1:])
