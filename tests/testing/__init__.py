"""Tests of taskkit.testing: properties, mutations, strategies, the check CLI."""
