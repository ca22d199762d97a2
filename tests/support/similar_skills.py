"""Skills that are and are not near-copies of each other, for the near-duplicate tests."""

from __future__ import annotations

SKILLS = {
    "pdf-extract-tables": """\
---
name: pdf-extract-tables
description: Extract tables from PDF documents into CSV with camelot or pdfplumber; use when a task
  needs tabular data out of a PDF report.
---

# Extract tables from PDFs

Tables in PDF reports are drawn, not stored: recover them with camelot (lattice mode for ruled
tables, stream mode for whitespace-separated ones) and fall back to pdfplumber.

1. Open the PDF and find the pages holding tables (`pdfplumber` page.find_tables()).
2. Run `camelot.read_pdf(path, pages=..., flavor="lattice")`; switch to stream when cells merge.
3. Check each table's header row and column count against the report.
4. Write every table to its own CSV file, named after the page and the table's position.
""",
    "pdf-merge": """\
---
name: pdf-merge
description: Merge several PDF files into one document with qpdf or pypdf, keeping bookmarks;
  use when a task needs PDFs combined.
---

# Merge PDFs

Combine PDF files in a given order into one document without losing bookmarks or page labels.

1. Collect the input files in the order the user wants them.
2. Run `qpdf --empty --pages a.pdf b.pdf -- out.pdf`; pypdf's PdfWriter works when qpdf is missing.
3. Keep the bookmarks of every part under one outline entry per input file.
4. Check the page count of the result equals the sum of the inputs.
""",
    "pdf-extract-images": """\
---
name: pdf-extract-images
description: Extract the embedded images of PDF documents as PNG or JPEG files with pymupdf;
  use when a task needs the pictures out of a PDF.
---

# Extract images from PDFs

Embedded images are stored as XObjects: pymupdf lists and saves them without re-rendering the
page, so they keep their original resolution.

1. Open the PDF with `fitz.open(path)` and walk the pages.
2. For each page, `page.get_images(full=True)` lists the image references (xref).
3. Save each image with `fitz.Pixmap(doc, xref)`; convert CMYK pixmaps to RGB before writing PNG.
4. Skip images smaller than 32 pixels a side: they are icons and rules, not pictures.
""",
    # pdf-extract-tables reworded sentence by sentence, under another name.
    "pdf-table-extraction": """\
---
name: pdf-table-extraction
description: Pull tables out of PDF reports and save them as CSV using camelot, or pdfplumber as
  a fallback.
---

# PDF table extraction

PDF reports draw their tables rather than storing them, so extract them with camelot: lattice
mode for tables with ruling lines, stream mode for ones separated by whitespace; pdfplumber is
the fallback.

1. Locate the pages with tables using pdfplumber's find_tables().
2. Call camelot.read_pdf with the pages and flavor="lattice"; use stream if cells get merged.
3. Compare the header row and number of columns of each table with the report.
4. Save each table as a separate CSV file named by page and position.
""",
}
