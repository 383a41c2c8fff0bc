"""Developer tools that reproduce the content art."""
