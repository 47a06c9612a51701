"""The records workspace: every module's records, from the declarations (lists, records, forms, actions)."""
