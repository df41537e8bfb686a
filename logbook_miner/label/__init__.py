"""Stage 3: codes and numbers for each entry, from rules kept as data; human corrections."""
