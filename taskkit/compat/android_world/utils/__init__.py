"""`android_world.utils`: file helpers and fuzzy matching."""
