"""Stage 2: `Line`s -> `Entry`s (headings, tables of contents, preambles) and their dates."""
