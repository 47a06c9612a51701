"""Admin workspace: users, roles, modules and API keys of the tenant."""
