// The grading page: one answer at a time, keyboard first. Student text is only ever set as
// textContent; an answer's HTML comes sanitised from the server (render.py).
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

function say(text) { $("status").textContent = text; }

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
  show();
}

function current() { return data.answers[index]; }
function part(name) { return data.parts.find((p) => p.name === name); }
function itemsOf(name) { return data.items.filter((i) => i.part === name); }
function fmt(x) { return String(Math.round(x * 1000) / 1000); }

function pointsOf(answer, adjustment, applied) {
  const max = part(answer.part).max;
  let raw = adjustment;
  for (const item of itemsOf(answer.part)) if (applied.includes(item.id)) raw += item.points;
  return Math.min(max, Math.max(0, raw));
}

function chosenItems() {
  return [...document.querySelectorAll("#applied input:checked")].map((box) => Number(box.value));
}

function isGraded(answer) {
  return Boolean(answer.grade) && !answer.grade.answer_changed;
}

function showPoints() {
  const answer = current();
  const adjustment = Number($("adjustment").value) || 0;
  const points = pointsOf(answer, adjustment, chosenItems());
  $("points").textContent = `Points: ${fmt(points)} of ${fmt(part(answer.part).max)}` +
    (isGraded(answer) ? "" : " (not saved: not graded yet)");
}

function show() {
  if (!data.answers.length) {
    $("progress").textContent = "No answers to grade.";
    return;
  }
  const answer = current();
  const spec = part(answer.part);
  const graded = data.answers.filter(isGraded).length;
  $("progress").textContent =
    `Answer ${index + 1} of ${data.answers.length}; ${graded} graded, ` +
    `${data.answers.length - graded} not graded yet.`;
  $("answer-heading").textContent = `Answer ${index + 1}: ${answer.student}, ${spec.title}`;
  $("answer-of").textContent = `Student ${answer.student}, part ${spec.name} ` +
    `(${fmt(spec.max)} points). ` + (!answer.grade ? "Not graded yet." : answer.grade.answer_changed
      ? `Graded by ${answer.grade.grader || "someone"} for an earlier answer: the answer that counts has changed since, so it is not graded yet; save to grade this one.`
      : `Graded by ${answer.grade.grader || "someone"}.`);
  const box = $("answer-text");
  if (answer.html === null) {
    box.textContent = "No answer: the submission held none.";
    box.className = "answer missing";
  } else {
    box.innerHTML = answer.html; // sanitised by the server (markdown-it without HTML, then nh3)
    box.className = "answer";
  }
  $("rubric-text").textContent = `Rubric: ${spec.rubric}`;
  const grade = answer.grade;
  $("adjustment").value = grade ? grade.adjustment : 0;
  $("comment").value = grade ? grade.comment : "";
  if (!$("grader").value) $("grader").value = data.grader || "";
  const applied = $("applied");
  applied.replaceChildren();
  itemsOf(answer.part).forEach((item, n) => {
    const li = document.createElement("li");
    const input = document.createElement("input");
    input.type = "checkbox";
    input.id = `apply-${item.id}`;
    input.value = item.id;
    input.checked = grade ? grade.items.includes(item.id) : false;
    input.addEventListener("change", showPoints);
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
  showPoints();
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
      const sent = { id: item.id, part: item.part, text: text.value, points: Number(points.value), version: item.version };
      const { status, payload } = await post("/api/item", sent);
      if (status === 200) {
        await load(true);
        document.getElementById(`item-points-${item.id}`)?.focus();
        say(`Saved item ${n + 1}: ${fmt(payload.item.points)} points; every answer it is applied to changed.`);
      } else if (status === 409) {
        say(`Item ${n + 1} was changed by another grader: reloaded theirs.`);
        await load(true);
      } else {
        say(`Item not saved (${status}).`);
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
    adjustment: Number($("adjustment").value) || 0,
    comment: $("comment").value,
    items: chosenItems(),
    grader: $("grader").value,
    version: version ?? (answer.grade ? answer.grade.version : 0),
  };
  const { status, payload } = await post("/api/grade", mine);
  if (status === 200) {
    answer.grade = payload.grade;
    show();
    $("answer").focus();
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
$("adjustment").addEventListener("input", showPoints);

$("new-item").addEventListener("submit", async (event) => {
  event.preventDefault();
  const answer = current();
  const { status, payload } = await post("/api/item", {
    part: answer.part, text: $("new-text").value, points: Number($("new-points").value),
  });
  if (status === 200) {
    $("new-text").value = "";
    $("new-points").value = 0;
    await load(true);
    $("answer").focus();
    say(`Added rubric item: ${payload.item.text} (${fmt(payload.item.points)}).`);
  } else {
    say(`Item not added (${status}).`);
  }
});

function move(step) {
  index = Math.min(data.answers.length - 1, Math.max(0, index + step));
  show();
  $("answer").focus();
}

function nextUngraded() {
  const count = data.answers.length;
  for (let k = 1; k <= count; k++) {
    const n = (index + k) % count;
    if (!isGraded(data.answers[n])) { index = n; show(); $("answer").focus(); return; }
  }
  say("Every answer is graded.");
}

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
  if (event.ctrlKey || event.metaKey || event.altKey || !data) return;
  const key = event.key;
  const actions = {
    j: () => move(1), ArrowRight: () => move(1), k: () => move(-1), ArrowLeft: () => move(-1),
    u: nextUngraded,
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
