import * as assert from "assert";
import {
  actionPickItems,
  applicableActions,
  appliesAt,
  CodeActionLike,
  commandOf,
  matchCodeAction,
  noActionsMessage,
  noMatchMessage,
  occurrenceOf,
  pickPlaceholder,
  scopeText,
} from "../actions";
import { ActionScope, AdvisorAction } from "../protocol";

function action(id: string, scope: ActionScope, extra: Partial<AdvisorAction> = {}): AdvisorAction {
  return { id, name: id, label: `Continuity Editor: ${id}`, scope, persona: "continuity-editor", core: true, source: "core", ...extra };
}

const lineEdit = action("line-edit", "selection", { label: "Writing Coach: Line edit", persona: "writing-coach", usage: "Tighten a paragraph." });
const check = action("continuity-check", "file", { label: "Continuity Editor: Continuity check" });
const timeline = action("book-timeline", "project", { label: "Continuity Editor: Book timeline" });
const mine = action("voice", "selection", { label: "Writing Coach: Voice", persona: "writing-coach", core: false, source: ".quire/actions/voice.md" });
const all = [lineEdit, check, timeline, mine];

describe("applicableActions", () => {
  it("offers only selection actions on a selection", () => {
    assert.deepStrictEqual(applicableActions(all, true), { shown: [lineEdit, mine], hidden: 2 });
  });
  it("offers file and project actions at the cursor", () => {
    assert.deepStrictEqual(applicableActions(all, false), { shown: [check, timeline], hidden: 2 });
  });
  it("knows no unknown scope", () => {
    const odd = { ...check, scope: "chapter" as ActionScope };
    assert.strictEqual(appliesAt(odd, true), false);
  });
  it("handles an empty list", () => {
    assert.deepStrictEqual(applicableActions([], false), { shown: [], hidden: 0 });
  });
});

describe("actionPickItems", () => {
  it("shows label, core or own, scope and usage", () => {
    assert.deepStrictEqual(
      actionPickItems([lineEdit, mine, timeline]).map(({ label, description, detail }) => ({ label, description, detail })),
      [
        { label: "Writing Coach: Line edit", description: "core", detail: "on the selection · Tighten a paragraph." },
        { label: "Writing Coach: Voice", description: "your own · .quire/actions/voice.md", detail: "on the selection" },
        { label: "Continuity Editor: Book timeline", description: "core", detail: "on the whole book" },
      ],
    );
    assert.strictEqual(actionPickItems([check])[0].action, check);
  });
  it("words the scopes", () => {
    assert.strictEqual(scopeText("file"), "on this chapter");
    assert.strictEqual(scopeText("odd"), "scope odd");
  });
});

describe("messages", () => {
  it("placeholder says why actions are hidden", () => {
    assert.strictEqual(pickPlaceholder(true, 0), "Actions on the selection.");
    assert.strictEqual(pickPlaceholder(true, 1), "Actions on the selection. 1 chapter or book action is hidden: clear the selection to run it.");
    assert.strictEqual(
      pickPlaceholder(false, 4),
      "Actions on this chapter and the whole book. 4 selection actions are hidden: select a passage to run them.",
    );
  });
  it("empty list", () => {
    assert.match(noActionsMessage(0, true), /no advisor actions/);
    assert.match(noActionsMessage(3, true), /Clear the selection/);
    assert.match(noActionsMessage(3, false), /Select a passage/);
  });
  it("no match names the action and what it needs", () => {
    assert.match(noMatchMessage(lineEdit), /“Writing Coach: Line edit” is not offered here: it needs a selection/);
    assert.match(noMatchMessage(check), /runs on a chapter/);
    assert.match(noMatchMessage(timeline), /clear the selection/);
  });
});

describe("matchCodeAction", () => {
  const arg = { persona: "continuity-editor", uri: "file:///b/m/01.md", message: "Check it" };
  const codeAction: CodeActionLike = { title: "Continuity Editor: Continuity check", command: { command: "quire.ask", arguments: [arg] } };
  const items: CodeActionLike[] = [
    { title: "Look up Teodora Quill", command: { command: "quire.lookup", arguments: [{}] } },
    // A same-titled action of another provider is not ours.
    { title: "Continuity Editor: Book timeline", command: { command: "other.run", arguments: [] } },
    codeAction,
    // A plain Command, as VS Code returns command-only providers.
    { title: "Continuity Editor: Book timeline", command: "quire.ask", arguments: [{ ...arg, message: "Timeline" }] },
  ];
  it("finds a CodeAction by its title", () => {
    assert.deepStrictEqual(matchCodeAction(items, check.label), { command: "quire.ask", arguments: [arg] });
  });
  it("finds a Command by its title, skipping other commands", () => {
    assert.deepStrictEqual(matchCodeAction(items, timeline.label), { command: "quire.ask", arguments: [{ ...arg, message: "Timeline" }] });
  });
  it("needs the exact title", () => {
    assert.strictEqual(matchCodeAction(items, "Continuity Editor: Continuity"), undefined);
    assert.strictEqual(matchCodeAction(items, "continuity editor: continuity check"), undefined);
    assert.strictEqual(matchCodeAction(undefined, check.label), undefined);
    assert.strictEqual(matchCodeAction(null, check.label), undefined);
  });
  it("picks the nth of equal titles", () => {
    const twin = { ...check, id: "continuity-check-2", core: false, source: "quire.yaml" };
    const list = [check, timeline, twin];
    const two: CodeActionLike[] = [codeAction, { ...codeAction, command: { command: "quire.ask", arguments: [{ ...arg, message: "Mine" }] } }];
    assert.strictEqual(occurrenceOf(list, check), 0);
    assert.strictEqual(occurrenceOf(list, twin), 1);
    assert.strictEqual(occurrenceOf(list, timeline), 0);
    assert.deepStrictEqual(matchCodeAction(two, check.label, occurrenceOf(list, twin))?.arguments, [{ ...arg, message: "Mine" }]);
    assert.deepStrictEqual(matchCodeAction([codeAction], check.label, 1)?.arguments, [arg]);
  });
  it("reads commands without arguments", () => {
    assert.deepStrictEqual(commandOf({ title: "t", command: { command: "quire.ask" } }), { command: "quire.ask", arguments: [] });
    assert.strictEqual(commandOf({ title: "t" }), undefined);
  });
});
