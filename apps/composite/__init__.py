"""Tasks that span several apps; they have no app model of their own."""
