"""Analytics: metrics by interval and dimension, every bus event counted, dashboards, report jobs
(CSV, XLSX, PDF), customer profiles (docs/analytics.md).
"""

from services.analytics import (  # noqa: F401 - declarations, job kind, periodic jobs and demo seeders
    alerts,
    customers,
    dashboards,
    demo,
    metrics,
    reports,
    scheduled_reports,
)
from services.core.modules import Module

MODULE = Module(
    name="analytics",
    events=("analytics.alert_triggered",),
    records=("analytics.dashboard", "analytics.report", "analytics.customer"),
    seeders=(demo.seed_analytics,),
    position=80,
    title="Analytics",
)
