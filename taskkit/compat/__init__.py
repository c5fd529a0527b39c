"""Compatibility layers that let tasks written for other frameworks run on taskkit."""
