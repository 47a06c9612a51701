"""Analytics: metrics by interval and dimension, every bus event counted, dashboards, report jobs
(CSV, XLSX, PDF), customer profiles (docs/analytics.md).
"""

from services.analytics import customers, dashboards, demo, metrics, reports, scheduled_reports  # noqa: F401 - declarations, job kind and demo seeders
from services.core.modules import Module

MODULE = Module(
    name="analytics",
    records=("analytics.dashboard", "analytics.report", "analytics.customer"),
    seeders=(demo.seed_analytics,),
    position=80,
)
