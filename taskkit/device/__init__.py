"""The transport layer (`Device`: a shell plus file transfer), quoting, and the typed device services."""
