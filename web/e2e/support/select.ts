import { expect, type Locator, type Page } from '@playwright/test';

/**
 * How the specs drive the app's one select component (a Mantine combobox whose listbox is named by
 * the field's label), so no spec knows how a choice is made. A string label or option matches
 * exactly; a regular expression matches a part.
 */
type Scope = Page | Locator;

const pageOf = (scope: Scope): Page => ('goto' in scope ? scope : scope.page());
const exact = (name: string | RegExp) => typeof name === 'string';

/** The select labelled `label`; its value reads as the chosen option's label. */
export function selectBox(scope: Scope, label: string | RegExp): Locator {
  return scope.getByRole('combobox', { name: label, exact: exact(label) });
}

function listbox(scope: Scope, label: string | RegExp): Locator {
  return pageOf(scope).getByRole('listbox', { name: label, exact: exact(label) });
}

/**
 * Chooses `option` in the select labelled `label` as a person would: opens it, or types `search`
 * into a searchable one to narrow a long list, then clicks the option.
 */
export async function pick(
  scope: Scope,
  label: string | RegExp,
  option: string | RegExp,
  { search }: { search?: string } = {},
) {
  const box = selectBox(scope, label);
  if (search === undefined) await box.click();
  else await box.fill(search);
  const list = listbox(scope, label);
  await list.getByRole('option', { name: option, exact: exact(option) }).click();
  await expect(list).toBeHidden();
}

/** The labels of the options the select offers, read by opening it; it is closed again. */
export async function selectOptions(scope: Scope, label: string | RegExp): Promise<string[]> {
  const box = selectBox(scope, label);
  await box.click();
  const list = listbox(scope, label);
  await expect(list).toBeVisible();
  const names = await list.getByRole('option').allTextContents();
  await box.press('Escape');
  await expect(list).toBeHidden();
  return names;
}
