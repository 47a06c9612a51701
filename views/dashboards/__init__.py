"""Dashboards workspace: the tenant's analytics dashboards drawn as charts (owners and admins)."""
