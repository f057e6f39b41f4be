import type { ReactNode } from 'react';
import type { FolderTree, TreeEntry, TreeFolder } from '../../lib/folder-tree';

/** An entry of a leaf's menu: a link, or one of the explorer's dialogs for that leaf. */
export type LeafAction = { label: string; to: string } | { label: string; dialog: 'rename' | 'move' | 'archive' };

/** Archiving something after a confirmation that says what it means. */
export type Archiving<T> = {
  run: (target: T) => Promise<unknown>;
  message: (target: T) => string;
  confirmLabel: string;
  /** The notification once done, given the name. */
  done: (name: string) => string;
};

/** What the explorer can change; each returns the server's answer or throws its refusal. */
export type FolderTreeOps<F, L> = {
  createFolder: (name: string, parentId: string | null) => Promise<{ name: string }>;
  renameFolder: (folder: F, name: string) => Promise<unknown>;
  /** Gives a folder a new place among its siblings. */
  reorderFolder: (folder: F, sortKey: string) => Promise<unknown>;
  move: (entry: TreeEntry<F, L>, folderId: string | null) => Promise<unknown>;
  /** The folder menu's label for it, with the rest. */
  archiveFolder: Archiving<F> & { label: string };
  /** A leaf's "rename" and "archive" actions show only when these are given. */
  renameLeaf?: (leaf: L, name: string) => Promise<unknown>;
  archiveLeaf?: Archiving<L>;
  /** Leaves made here: "New {noun}" beside "New folder", and "New {noun} inside" a folder. */
  createLeaf?: { noun: string; run: (name: string, folderId: string | null) => Promise<{ name: string }> };
};

export type FolderExplorerProps<F extends TreeFolder, L> = {
  tree: FolderTree<F, L>;
  /** While loading, the summary says so and the list does not call itself empty. */
  pending: boolean;
  /** The line under the toolbar once loaded; `matches` counts the search's rows while one runs. */
  summary: (matches: number | null) => string;
  /** What an empty tree says. */
  empty: string;
  /** Names the scrolling list for assistive technology. */
  listLabel: string;
  /** How the move dialog names the top level. */
  rootLabel: string;
  /** A search box over every folder's and leaf's name, labelled so; none without it. */
  searchLabel?: string;
  /** Rows can be dragged onto a folder, or onto a zone for the top level, to move them. */
  dragToMove?: boolean;
  /** The kind an actions menu names ("Actions for role Triage"), where one list holds several. */
  kindOf?: (entry: TreeEntry<F, L>) => string;
  /** A folder's row ends with this (its counts). */
  folderDetail: (folder: F) => string;
  leaf: {
    testId: (leaf: L) => string;
    /** The row between its indent and its menu; `where` names its folder while a search runs. */
    render: (leaf: L, where: ReactNode) => ReactNode;
    actions: (leaf: L) => LeafAction[];
  };
  ops: FolderTreeOps<F, L>;
};

/** The explorer's one open dialog. */
export type Dialog<F, L> =
  | { type: 'create-folder'; parentId: string | null }
  | { type: 'create-leaf'; folderId: string | null }
  | { type: 'rename' | 'move' | 'archive'; entry: TreeEntry<F, L> }
  | { type: 'move-selected' };
