"""The page's glue: forms, rendering and boot."""
