"""One module per page (job) of the main window. Every page has ``retranslate()`` for live language switches."""
