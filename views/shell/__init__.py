"""The desktop shell: sign-in, tenant choice, workspace switcher, status bar, kiosk mode."""
