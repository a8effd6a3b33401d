// The grading page: one answer at a time, a list of them all with their status, keyboard first.
// Student text is only ever set as textContent; an answer's HTML comes sanitised from the server.
"use strict";

// The token: from the address once (?token=, as `manual serve` printed it), then from this
// tab's sessionStorage, which no other origin (another port included) can read. It leaves the
// address bar at once and travels only in a header of this page's own requests: no cookie, so
// nothing reaches another local server by itself.
const TOKEN_KEY = "autograder-token";
const token = (() => {
  const address = new URL(window.location.href);
  const given = address.searchParams.get("token");
  if (given) {
    window.sessionStorage.setItem(TOKEN_KEY, given);
    address.searchParams.delete("token");
    window.history.replaceState(null, "", address.pathname + address.search + address.hash);
  }
  return window.sessionStorage.getItem(TOKEN_KEY) || "";
})();
const NO_TOKEN = "This page needs its token: open the address that `autograder manual serve` " +
  "printed (the one ending in ?token=).";
const $ = (id) => document.getElementById(id);
let data = null;
let index = 0;
let pending = null; // the save that met a conflict: what this grader wanted
const drafts = new Map(); // answer's key → the grade typed for it and not saved yet

// The save's outcome, beside the Save button; the rubric items' own, beside them.
function say(text) { $("status").textContent = text; }
function sayItem(text) { $("item-status").textContent = text; }

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Autograder-Token": token },
    body: JSON.stringify(body),
    credentials: "omit",
  });
  let payload = null;
  try { payload = await response.json(); } catch (error) { payload = null; }
  return { status: response.status, payload };
}

async function load(keep) {
  if (!token) { $("progress").textContent = NO_TOKEN; return; }
  const response = await fetch("/api/state", {
    headers: { "X-Autograder-Token": token },
    credentials: "omit",
  });
  if (response.status === 403) { $("progress").textContent = NO_TOKEN; return; }
  data = await response.json();
  $("title").textContent = `Written answers: ${data.title} (${data.assignment})`;
  document.title = `Grading written answers: ${data.title} (${data.assignment})`;
  if (!keep) index = 0;
  index = Math.min(index, Math.max(0, data.answers.length - 1));
  show();
}

function current() { return data.answers[index]; }
function part(name) { return data.parts.find((p) => p.name === name); }
function itemsOf(name) { return data.items.filter((i) => i.part === name); }
function fmt(x) { return String(Math.round(x * 1000) / 1000); }
function keyOf(answer) { return JSON.stringify([answer.student, answer.part]); }

function pointsOf(answer, adjustment, applied) {
  const max = part(answer.part).max;
  let raw = adjustment;
  for (const item of itemsOf(answer.part)) if (applied.includes(item.id)) raw += item.points;
  return Math.min(max, Math.max(0, raw));
}

function chosenItems() {
  return [...document.querySelectorAll("#applied input:checked")].map((box) => Number(box.value));
}

function isGraded(answer) { return answer.status === "graded"; }
function needsGrade(answer) { return answer.status === "not_graded" || answer.status === "answer_changed"; }

function statusText(answer) {
  if (answer.status === "graded") {
    return `graded, ${fmt(answer.grade.points)} of ${fmt(part(answer.part).max)}`;
  }
  if (answer.status === "no_answer") return "no answer (0 points)";
  if (answer.status === "answer_changed") return "not graded yet (answer changed)";
  return "not graded yet";
}

// What the form holds, and whether it differs from the saved grade.
function typed() {
  return {
    adjustment: Number($("adjustment").value) || 0,
    comment: $("comment").value,
    items: chosenItems(),
  };
}

function differsFromSaved(answer) {
  const grade = answer.grade;
  const now = typed();
  const saved = grade ? grade.items : [];
  return now.adjustment !== (grade ? grade.adjustment : 0) ||
    now.comment !== (grade ? grade.comment : "") ||
    now.items.length !== saved.length || now.items.some((id) => !saved.includes(id));
}

function keepDraft() {
  if (!data || !data.answers.length) return;
  const answer = current();
  if (differsFromSaved(answer)) drafts.set(keyOf(answer), typed());
  else drafts.delete(keyOf(answer));
}

const NOT_SAVED = "Not saved yet.";

function edited() {
  showPoints();
  const changed = differsFromSaved(current());
  const now = $("status").textContent;
  if (changed && now !== NOT_SAVED) say(NOT_SAVED);
  if (!changed && now === NOT_SAVED) say("");
}

function showPoints() {
  const answer = current();
  const adjustment = Number($("adjustment").value) || 0;
  const points = pointsOf(answer, adjustment, chosenItems());
  const note = isGraded(answer) ? "" : answer.status === "no_answer"
    ? " (nothing saved: no answer counts 0 points)" : " (not saved: not graded yet)";
  $("points").textContent = `Points: ${fmt(points)} of ${fmt(part(answer.part).max)}${note}`;
}

function missingText(answer) {
  if (!answer.captured) {
    return "No answer was captured from this submission: it waits for a grade like any other.";
  }
  if (answer.left_as_released) {
    return `No answer: the answer was left as released (“${data.placeholder}”) or blank. ` +
      "It counts 0 points unless you save a grade.";
  }
  return "No answer: the submission held none. It counts 0 points unless you save a grade.";
}

function show() {
  if (!data.answers.length) {
    $("progress").textContent = "No answers to grade.";
    return;
  }
  const answer = current();
  const spec = part(answer.part);
  const graded = data.answers.filter(isGraded).length;
  const waiting = data.answers.filter(needsGrade).length;
  const unanswered = data.answers.length - graded - waiting;
  $("progress").textContent =
    `Answer ${index + 1} of ${data.answers.length}; ${graded} graded, ` +
    (unanswered ? `${unanswered} with no answer (0 points), ` : "") +
    `${waiting} not graded yet.`;
  $("answer-heading").textContent = `Answer ${index + 1}: ${answer.student}, ${spec.title}`;
  const grader = answer.grade ? answer.grade.grader || "someone" : "";
  const state = {
    graded: `Graded by ${grader}.`,
    answer_changed: `Graded by ${grader} for an earlier answer: the answer that counts has changed since, so it is not graded yet; save to grade this one.`,
    no_answer: "No answer: 0 points unless you save a grade.",
    not_graded: "Not graded yet.",
  }[answer.status];
  $("answer-of").textContent = `Student ${answer.student}, part ${spec.name} ` +
    `(${fmt(spec.max)} points). ${state}`;
  const box = $("answer-text");
  if (answer.html === null) {
    box.textContent = missingText(answer);
    box.className = "answer missing";
  } else {
    box.innerHTML = answer.html; // sanitised by the server (markdown-it without HTML, then nh3)
    box.className = "answer";
  }
  $("rubric-text").textContent = spec.rubric.trim(); // its levels keep their lines (CSS)
  const grade = answer.grade;
  const draft = drafts.get(keyOf(answer));
  const shown = draft || { adjustment: grade ? grade.adjustment : 0,
    comment: grade ? grade.comment : "", items: grade ? grade.items : [] };
  $("adjustment").value = shown.adjustment;
  $("comment").value = shown.comment;
  if (!$("grader").value) $("grader").value = data.grader || "";
  const applied = $("applied");
  applied.replaceChildren();
  itemsOf(answer.part).forEach((item, n) => {
    const li = document.createElement("li");
    const input = document.createElement("input");
    input.type = "checkbox";
    input.id = `apply-${item.id}`;
    input.value = item.id;
    input.checked = shown.items.includes(item.id);
    input.addEventListener("change", edited);
    const label = document.createElement("label");
    label.htmlFor = input.id;
    label.textContent = `${n + 1}. ${item.text} (${item.points >= 0 ? "+" : ""}${fmt(item.points)})`;
    li.append(input, " ", label);
    applied.append(li);
  });
  if (!itemsOf(answer.part).length) {
    const li = document.createElement("li");
    li.textContent = "None yet: add one below.";
    applied.append(li);
  }
  showItems(answer.part);
  $("conflict").hidden = true;
  pending = null;
  $("previous").disabled = index === 0;
  $("next").disabled = index === data.answers.length - 1;
  say(draft ? "Not saved yet: your changes to this answer were kept; save them with s." : "");
  showPoints();
  showList();
}

// Every answer with its status; the one shown is marked (aria-current).
function showList() {
  const list = $("answer-list");
  list.replaceChildren();
  const several = data.parts.length > 1;
  data.answers.forEach((answer, n) => {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = `pick status-${answer.status}`;
    if (n === index) button.setAttribute("aria-current", "true");
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = several ? `${answer.student}, ${answer.part}` : answer.student;
    const state = document.createElement("span");
    state.className = "state";
    state.textContent = statusText(answer) +
      (drafts.has(keyOf(answer)) ? "; changes not saved" : "");
    button.append(who, ": ", state);
    button.addEventListener("click", () => { go(n); $("answer").focus(); });
    li.append(button);
    list.append(li);
  });
  list.querySelector("[aria-current]")?.scrollIntoView({ block: "nearest" });
}

function showItems(partName) {
  const list = $("items");
  list.replaceChildren();
  itemsOf(partName).forEach((item, n) => {
    const li = document.createElement("li");
    const form = document.createElement("form");
    form.className = "item";
    const text = document.createElement("input");
    text.type = "text";
    text.id = `item-text-${item.id}`;
    text.value = item.text;
    const textLabel = document.createElement("label");
    textLabel.htmlFor = text.id;
    textLabel.textContent = `Item ${n + 1}: comment`;
    const points = document.createElement("input");
    points.type = "number";
    points.step = "any";
    points.id = `item-points-${item.id}`;
    points.className = "item-points";
    points.value = item.points;
    const pointsLabel = document.createElement("label");
    pointsLabel.htmlFor = points.id;
    pointsLabel.textContent = `Item ${n + 1}: points`;
    const button = document.createElement("button");
    button.type = "submit";
    button.textContent = `Save item ${n + 1}`;
    form.append(textLabel, text, pointsLabel, points, " ", button);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const sent = { id: item.id, part: item.part, text: text.value, points: Number(points.value),
        version: item.version, grader: $("grader").value };
      const { status, payload } = await post("/api/item", sent);
      if (status === 200) {
        keepDraft();
        await load(true);
        document.getElementById(`item-points-${item.id}`)?.focus();
        sayItem(`Saved item ${n + 1}: ${fmt(payload.item.points)} points; every answer it is applied to changed.`);
      } else if (status === 409) {
        keepDraft();
        await load(true);
        sayItem(`Item ${n + 1} was changed by another grader: reloaded theirs.`);
      } else {
        sayItem(`Item not saved (${status}).`);
      }
    });
    li.append(form);
    list.append(li);
  });
}

async function save(version) {
  const answer = current();
  const mine = {
    student: answer.student,
    part: answer.part,
    ...typed(),
    grader: $("grader").value,
    version: version ?? (answer.grade ? answer.grade.version : 0),
  };
  say("Saving…");
  const { status, payload } = await post("/api/grade", mine);
  if (status === 200) {
    answer.grade = payload.grade;
    answer.status = "graded";
    drafts.delete(keyOf(answer));
    show();
    say(`Saved: ${answer.student}, ${fmt(payload.grade.points)} points.`); // last: the work is done
    return true;
  }
  if (status === 409) {
    const theirs = payload.conflict;
    pending = { mine, theirs };
    const mineShown = pointsOf(answer, mine.adjustment, mine.items);
    $("conflict-text").textContent = theirs
      ? `Theirs (${theirs.grader || "another grader"}): ${fmt(theirs.points)} points, comment “${theirs.comment}”. ` +
        `Yours: ${fmt(mineShown)} points, comment “${mine.comment}”. Nothing was overwritten.`
      : `The grade was removed meanwhile. Yours: ${fmt(mineShown)} points. Nothing was overwritten.`;
    $("conflict").hidden = false;
    say("Conflict: not saved.");
    $("keep-theirs").focus();
    return false;
  }
  say(`Not saved (${status}): ${payload ? JSON.stringify(payload) : "refused"}.`);
  return false;
}

$("keep-theirs").addEventListener("click", async () => {
  drafts.delete(keyOf(current()));
  await load(true);
  $("answer").focus();
  say("Kept the other grader's grade.");
});
$("save-mine").addEventListener("click", async () => {
  if (!pending) return;
  const { mine, theirs } = pending;
  $("adjustment").value = mine.adjustment;
  $("comment").value = mine.comment;
  await save(theirs ? theirs.version : 0);
  $("answer").focus();
});

$("grade-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  await save();
  $("answer").focus();
});
$("adjustment").addEventListener("input", edited);
$("comment").addEventListener("input", edited);

$("new-item").addEventListener("submit", async (event) => {
  event.preventDefault();
  const answer = current();
  const { status, payload } = await post("/api/item", {
    part: answer.part, text: $("new-text").value, points: Number($("new-points").value),
    grader: $("grader").value,
  });
  if (status === 200) {
    $("new-text").value = "";
    $("new-points").value = 0;
    keepDraft();
    await load(true);
    $("answer").focus();
    sayItem(`Added rubric item: ${payload.item.text} (${fmt(payload.item.points)}).`);
  } else {
    sayItem(`Item not added (${status}).`);
  }
});

// Moving keeps what was typed and not saved with its answer (a draft), so nothing is lost.
function go(n) {
  keepDraft();
  index = n;
  show();
}

function move(step) {
  const n = Math.min(data.answers.length - 1, Math.max(0, index + step));
  if (n === index) {
    say(step > 0 ? "This is the last answer." : "This is the first answer.");
    return;
  }
  go(n);
}

function nextUngraded() {
  const count = data.answers.length;
  for (let k = 1; k <= count; k++) {
    const n = (index + k) % count;
    if (needsGrade(data.answers[n])) { go(n); return true; }
  }
  say("Every answer is graded.");
  return false;
}

// The buttons keep the focus (press again to go on), unless they cannot be pressed again.
function pressed(button, action) {
  $(button).addEventListener("click", () => {
    if (!data || !data.answers.length) return;
    action();
    if ($(button).disabled) $("answer").focus();
  });
}
pressed("previous", () => move(-1));
pressed("next", () => move(1));
pressed("next-ungraded", nextUngraded);

document.addEventListener("keydown", async (event) => {
  const target = event.target;
  const typing = target instanceof HTMLInputElement && target.type !== "checkbox" ||
    target instanceof HTMLTextAreaElement;
  if (typing) {
    if (event.key === "Escape") { target.blur(); $("answer").focus(); }
    if (event.key === "Enter" && event.ctrlKey && target.id === "comment") {
      event.preventDefault();
      await save();
      $("answer").focus();
    }
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey || !data || !data.answers.length) return;
  const key = event.key;
  const actions = {
    j: () => { move(1); $("answer").focus(); },
    ArrowRight: () => { move(1); $("answer").focus(); },
    k: () => { move(-1); $("answer").focus(); },
    ArrowLeft: () => { move(-1); $("answer").focus(); },
    u: () => { nextUngraded(); $("answer").focus(); },
    s: async () => { await save(); $("answer").focus(); },
    p: () => $("adjustment").focus(),
    c: () => $("comment").focus(),
    n: () => $("new-text").focus(),
    r: () => document.querySelector(".item-points")?.focus(),
  };
  if (/^[1-9]$/.test(key)) {
    event.preventDefault();
    const box = document.querySelectorAll("#applied input[type=checkbox]")[Number(key) - 1];
    if (!box) { say(`No rubric item ${key}.`); return; }
    box.checked = !box.checked;
    showPoints();
    await save();
    $("answer").focus();
    return;
  }
  if (Object.hasOwn(actions, key)) {
    event.preventDefault(); // before focus moves: the key is not typed into the field
    await actions[key]();
  }
});

load(false).catch((error) => say(`Could not load the answers: ${error}`));
