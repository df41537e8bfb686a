"""What people see: charts, the dashboard page, the CLI's tables."""
