"""Report helpers for the integration fixture."""
from dataclasses import dataclass


@dataclass
class Report:
    title: str
    rows: list


# oracle:domain=reporting
def build_report(title, rows):
    return Report(title=title, rows=list(rows))


def render(report):
    return "\n".join([report.title] + [str(r) for r in report.rows])
