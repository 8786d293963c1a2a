"""The page's glue: forms, rendering and boot. Only main.py and page.py import the browser."""
