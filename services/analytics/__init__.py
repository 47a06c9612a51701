"""Analytics: metrics by interval and dimension, every bus event counted, dashboards, report jobs
(CSV, XLSX, PDF), customer profiles (docs/analytics.md).
"""

from services.analytics import demo, reports, service  # noqa: F401 - declarations, job kind and demo seeders
