/**
 * The content a file will have after a Write, Edit, MultiEdit or
 * NotebookEdit, computed before the tool runs so PreToolUse can judge it.
 * Tool input shapes are Claude Code's (hooks reference, "PreToolUse input"):
 * Write `{file_path, content}`; Edit `{file_path, old_string, new_string,
 * replace_all}`; MultiEdit `{file_path, edits: [{old_string, new_string,
 * replace_all}]}` applied in order; NotebookEdit `{notebook_path, cell_id,
 * new_source, cell_type, edit_mode: replace | insert | delete}`.
 */

/** The result: the new content, or why it cannot be known (the tool would fail, or the input is malformed). */
export type EditPreview = { ok: true; after: string | null } | { ok: false; why: string };

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** Applies one Edit the way the tool does: `old_string` must occur (exactly once unless `replace_all`). */
function applyEdit(content: string, edit: Record<string, unknown>): string | { why: string } {
  const oldString = text(edit.old_string);
  const newString = text(edit.new_string);
  if (oldString === undefined || newString === undefined) return { why: "old_string or new_string missing" };
  if (oldString === "") return content === "" ? newString : { why: "empty old_string on a non-empty file" };
  const first = content.indexOf(oldString);
  if (first < 0) return { why: "old_string not found (the tool will fail)" };
  if (edit.replace_all === true) return content.split(oldString).join(newString);
  if (content.indexOf(oldString, first + oldString.length) >= 0) return { why: "old_string is not unique (the tool will fail)" };
  return content.slice(0, first) + newString + content.slice(first + oldString.length);
}

/** Applies a NotebookEdit to an .ipynb document. */
function applyNotebookEdit(before: string | null, input: Record<string, unknown>): string | { why: string } {
  let notebook: { cells?: Array<Record<string, unknown>> } & Record<string, unknown>;
  try {
    notebook = before === null ? { cells: [] } : (JSON.parse(before) as typeof notebook);
  } catch {
    return { why: "the notebook is not valid JSON" };
  }
  const cells = Array.isArray(notebook.cells) ? [...notebook.cells] : [];
  const cellId = text(input.cell_id);
  const mode = text(input.edit_mode) ?? "replace";
  const source = text(input.new_source) ?? "";
  let index = cellId === undefined ? -1 : cells.findIndex((cell) => cell.id === cellId);
  if (index < 0 && cellId !== undefined && /^cell-\d+$/.test(cellId)) index = Number(cellId.slice(5));
  const lines = source.split(/(?<=\n)/);
  const cell = (): Record<string, unknown> => {
    const cellType = text(input.cell_type) ?? "code";
    return cellType === "markdown" ? { cell_type: "markdown", metadata: {}, source: lines } : { cell_type: "code", metadata: {}, source: lines, outputs: [], execution_count: null };
  };
  if (mode === "insert") cells.splice(index < 0 ? 0 : index + 1, 0, cell());
  else if (index < 0 || index >= cells.length) return { why: `cell ${cellId ?? "(none)"} not found` };
  else if (mode === "delete") cells.splice(index, 1);
  else cells[index] = { ...cells[index], source: lines, ...(text(input.cell_type) ? { cell_type: input.cell_type } : {}) };
  return `${JSON.stringify({ ...notebook, cells }, null, 1)}\n`;
}

/**
 * The file's content after the tool runs, given its content now (`before`,
 * null when the file does not exist).
 */
export function previewEdit(toolName: string, input: Record<string, unknown>, before: string | null): EditPreview {
  const wrap = (result: string | { why: string }): EditPreview => (typeof result === "string" ? { ok: true, after: result } : { ok: false, why: result.why });
  switch (toolName) {
    case "Write": {
      const content = text(input.content);
      return content === undefined ? { ok: false, why: "content missing" } : { ok: true, after: content };
    }
    case "Edit":
      return wrap(applyEdit(before ?? "", input));
    case "MultiEdit": {
      if (!Array.isArray(input.edits)) return { ok: false, why: "edits missing" };
      let content = before ?? "";
      for (const [i, edit] of input.edits.entries()) {
        if (typeof edit !== "object" || edit === null) return { ok: false, why: `edit ${i + 1} is not an object` };
        const next = applyEdit(content, edit as Record<string, unknown>);
        if (typeof next !== "string") return { ok: false, why: `edit ${i + 1}: ${next.why}` };
        content = next;
      }
      return { ok: true, after: content };
    }
    case "NotebookEdit":
      return wrap(applyNotebookEdit(before, input));
    default:
      return { ok: false, why: `${toolName} is not a file edit tool` };
  }
}
