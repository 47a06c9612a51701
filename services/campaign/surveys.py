"""Campaign: surveys."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from local_db.models.campaign import (
    CampaignSurvey,
    CampaignSurveyResponse,
)
from services.campaign import schemas as sc
from services.campaign.lookups import _get, _require_module
from services.campaign.states import (
    SURVEY,
    SURVEY_TARGETS,
)
from services.core.commands import record_kind, use_case
from services.core.context import Ctx
from services.core.errors import NotFound, ValidationFailed, conflict_state
from services.core.pagination import ListQuery, Page, contains, paginate
from services.core.roles import STAFF

record_kind("campaign.survey", get="campaign.surveys.get", label="name")


def _survey_out(s: Session, v: CampaignSurvey) -> sc.SurveyOut:
    n = s.scalar(
        select(func.count()).select_from(CampaignSurveyResponse).where(CampaignSurveyResponse.survey_id == v.id)
    )
    return sc.SurveyOut(
        id=v.id,
        name=v.name,
        questions=v.questions,
        status=v.status,
        responses=int(n or 0),
        created_at=v.created_at,  # type: ignore[arg-type]
    )


@use_case("campaign.surveys.list", "GET /surveys", tx="read", roles=STAFF, record="campaign.survey")
def list_surveys(ctx: Ctx, query: ListQuery) -> Page[sc.SurveyOut]:
    stmt = select(CampaignSurvey)
    if query.search:
        stmt = stmt.where(contains(CampaignSurvey.name, query.search))
    with ctx.read() as s:
        page = paginate(s, stmt, query, columns={"created_at": CampaignSurvey.created_at, "name": CampaignSurvey.name})
        return page.map(lambda v: _survey_out(s, v))


@use_case("campaign.surveys.get", "GET /surveys/{id}", tx="read", roles=STAFF, record="campaign.survey")
def get_survey(ctx: Ctx, id: str) -> sc.SurveyOut:
    with ctx.read() as s:
        return _survey_out(s, _get(s, CampaignSurvey, id, "survey"))


@use_case(
    "campaign.surveys.create",
    "POST /surveys",
    tx="write",
    roles=STAFF,
    status=201,
    says="New survey",
    record="campaign.survey",
)
def create_survey(ctx: Ctx, body: sc.SurveyIn) -> sc.SurveyOut:
    ids = [q.id for q in body.questions]
    if len(set(ids)) != len(ids):
        raise ValidationFailed("question ids must be unique", {"field": "questions"})
    for q in body.questions:
        if q.type == "choice" and len(q.options) < 2:
            raise ValidationFailed("a choice question needs at least two options", {"field": f"questions.{q.id}"})
    with ctx.write() as s:
        v = CampaignSurvey(
            name=body.name, questions=[q.model_dump() for q in body.questions], status=body.status, created_at=ctx.now()
        )
        s.add(v)
        s.flush()
        return _survey_out(s, v)


class SurveyStatusIn(sc.Strict):
    status: sc.SurveyStatus


@use_case(
    "campaign.surveys.update",
    "PATCH /surveys/{id}",
    tx="write",
    roles=STAFF,
    says="Open or close survey",
    record="campaign.survey",
    summary="open or close a survey: {status: open|closed}",
)
def update_survey(ctx: Ctx, id: str, body: SurveyStatusIn) -> sc.SurveyOut:
    with ctx.write() as s:
        v = _get(s, CampaignSurvey, id, "survey")
        if body.status != v.status:
            action = SURVEY_TARGETS.get(body.status)
            if action is None:
                raise conflict_state("survey", v.status, f"move to {body.status}")
            v.status = SURVEY.check(v.status, action)
        s.flush()
        return _survey_out(s, v)


@use_case(
    "campaign.surveys.responses",
    "GET /surveys/{id}/responses",
    tx="read",
    roles=STAFF,
    record="campaign.survey",
)
def list_responses(ctx: Ctx, id: str, query: ListQuery) -> Page[sc.ResponseOut]:
    with ctx.read() as s:
        _get(s, CampaignSurvey, id, "survey")
        stmt = select(CampaignSurveyResponse).where(CampaignSurveyResponse.survey_id == id)
        page = paginate(s, stmt, query, columns={"created_at": CampaignSurveyResponse.created_at})
        return page.map(sc.ResponseOut.model_validate)


def _check_answers(questions: list[dict[str, Any]], answers: dict[str, Any]) -> None:
    known = {q["id"]: q for q in questions}
    unknown = [k for k in answers if k not in known]
    if unknown:
        raise ValidationFailed("unknown question", {"questions": unknown[:10]})
    for qid, value in answers.items():
        q = known[qid]
        if q["type"] == "text" and (not isinstance(value, str) or len(value) > 5000):
            raise ValidationFailed("a text answer is a string of at most 5000 characters", {"question": qid})
        if q["type"] == "choice" and value not in q.get("options", []):
            raise ValidationFailed("not one of the options", {"question": qid, "options": q.get("options", [])})
        if q["type"] == "rating" and (isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10):
            raise ValidationFailed("a rating is a whole number from 1 to 10", {"question": qid})


@use_case(
    "campaign.public.survey",
    "GET /p/surveys/{id}",
    tx="read",
    auth="public",
    summary="a survey's questions while it is open (public)",
)
def public_survey(ctx: Ctx, id: str) -> sc.SurveyOut:
    _require_module(ctx)
    with ctx.read() as s:
        v = s.get(CampaignSurvey, id)
        if v is None or v.status != "open":
            raise NotFound("survey not found or not open", {"id": id})
        return sc.SurveyOut(
            id=v.id, name=v.name, questions=v.questions, status="open", responses=0, created_at=v.created_at
        )


@use_case(
    "campaign.public.answer",
    "POST /p/surveys/{id}/responses",
    tx="write",
    auth="public",
    status=201,
    limit="public_events",
    summary="answer a survey while it is open (public, rate-limited)",
)
def answer_survey(ctx: Ctx, id: str, body: sc.AnswerIn) -> sc.ResponseOut:
    _require_module(ctx)
    with ctx.write() as s:
        v = s.get(CampaignSurvey, id)
        if v is None:
            raise NotFound("survey not found", {"id": id})
        if v.status != "open":
            raise conflict_state("survey", v.status, "answer")
        _check_answers(v.questions, body.answers)
        r = CampaignSurveyResponse(survey_id=v.id, answers=body.answers, email=body.email, created_at=ctx.now())
        s.add(r)
        s.flush()
        return sc.ResponseOut.model_validate(r)
