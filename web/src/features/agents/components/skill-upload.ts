/**
 * Turning what a person picked or dropped into `installAgentSkill`'s `{path, content}` list.
 * Skills hold text only: the server refuses content that is not UTF-8 (422 `invalid_skill`), so
 * each file is decoded strictly here, and one that is not text is named instead of being sent
 * mangled (a lenient decode would replace its bytes and change the skill's digest).
 */
export type PickedFile = { path: string; file: Blob };
export type SkillFile = { path: string; content: string };
export type ReadSkill = {
  /** The files to send, `SKILL.md` at the root, sorted by path. */
  files: SkillFile[];
  /** Paths (after stripping) of files that are not UTF-8 text. */
  notText: string[];
  /** The directory that was stripped from every path (the picked folder), if any. */
  top: string | null;
};

/** The files of a directory input: each carries its path under the picked folder, the folder first. */
export function pickedFromInput(files: FileList | readonly File[]): PickedFile[] {
  return Array.from(files).map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}

async function walk(entry: FileSystemEntry, out: PickedFile[]): Promise<void> {
  const path = entry.fullPath.replace(/^\/+/, '') || entry.name;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ path, file });
  } else if (entry.isDirectory) {
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    // readEntries answers in batches (100 in Chromium) until it answers an empty one.
    for (;;) {
      const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
      if (batch.length === 0) break;
      for (const child of batch) await walk(child, out);
    }
  }
}

/**
 * The files of a drop: a dropped folder is walked (its name leads every path), loose files keep
 * their names. The entries are taken synchronously, while the drop event still holds them.
 */
export function pickedFromDrop(data: DataTransfer): Promise<PickedFile[]> {
  const entries: FileSystemEntry[] = [];
  const loose: File[] = [];
  for (const item of Array.from(data.items)) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry?.() ?? null;
    const file = item.getAsFile();
    if (entry) entries.push(entry);
    else if (file) loose.push(file);
  }
  if (entries.length === 0 && loose.length === 0) loose.push(...Array.from(data.files));
  return (async () => {
    const out: PickedFile[] = loose.map((file) => ({ path: file.name, file }));
    for (const entry of entries) await walk(entry, out);
    return out;
  })();
}

/** Removes the directories every path shares (the picked folder), so `SKILL.md` lands at the root. */
export function stripCommonTop(paths: readonly string[]): { top: string | null; paths: string[] } {
  let current = paths.map((p) => p.replace(/^\/+/, ''));
  let top: string | null = null;
  for (;;) {
    const first = current[0]?.split('/')[0];
    if (first === undefined || current.some((p) => !p.includes('/') || p.split('/')[0] !== first)) break;
    top = first;
    current = current.map((p) => p.slice(first.length + 1));
  }
  return { top, paths: current };
}

const strictUtf8 = () => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Reads the picked files as UTF-8 text, keeping a byte order mark, so the server sees the same bytes. */
export async function readSkillFiles(picked: readonly PickedFile[]): Promise<ReadSkill> {
  const { top, paths } = stripCommonTop(picked.map((p) => p.path));
  const files: SkillFile[] = [];
  const notText: string[] = [];
  for (const [i, p] of picked.entries()) {
    const path = paths[i]!;
    try {
      files.push({ path, content: strictUtf8().decode(await p.file.arrayBuffer()) });
    } catch {
      notText.push(path);
    }
  }
  const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  files.sort((a, b) => byPath(a.path, b.path));
  notText.sort(byPath);
  return { files, notText, top };
}

/** A scalar of `SKILL.md`'s YAML front matter (`name`, `version`), for suggesting the form's values. */
export function frontMatterValue(skillMd: string, key: string): string | null {
  const block = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(skillMd);
  if (!block) return null;
  const line = new RegExp(`^${key}:[ \\t]*(.*?)[ \\t]*$`, 'm').exec(block[1]!);
  if (!line) return null;
  const value = line[1]!.replace(/^(['"])(.*)\1$/, '$2');
  return value || null;
}

export const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** A skill name from a folder name: `PDF Tools` → `pdf-tools`. */
export function suggestSkillName(folder: string): string {
  return folder
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 64);
}
