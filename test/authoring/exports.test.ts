/** The public surface of the authoring tool: its module exports and its commands. */
import { expect, it } from 'vitest';
import * as api from '../../authoring/index.js';

it('exports exactly the documented API', () => {
  expect(Object.keys(api).sort()).toEqual([
    'BuildError',
    'COMMAND_USAGE',
    'CONTENT_KEYWORD',
    'COURSE_FILE',
    'COURSE_SCHEMA_FILE',
    'CourseCheckError',
    'DIAGNOSTIC_CLASSES',
    'FORMAT_EXTENSIONS',
    'KINDS_DIR',
    'KindSchemaError',
    'OUTLINE_PROPERTY',
    'TEMPLATE_DIR',
    'USAGE',
    'UsageError',
    'assembleMarkdown',
    'buildAllTypeset',
    'buildRootOf',
    'buildTarget',
    'checkCourse',
    'checkOutline',
    'classifyUrl',
    'compileKind',
    'compileTypeset',
    'concatenateTypeset',
    'contentExtension',
    'createKindAjv',
    'diagnosticMessage',
    'diagnosticsToJson',
    'formatDiagnostics',
    'formatMessages',
    'headingShiftEdits',
    'imageDestinations',
    'initCourse',
    'loadCourse',
    'loadKinds',
    'main',
    'problemMessage',
    'readCourseFile',
    'resolveImage',
    'sourceLocation',
    'typesetTargets',
    'version',
    'watchCourse',
  ]);
});

it('has exactly the six diagnostic classes of the design', () => {
  expect(api.DIAGNOSTIC_CLASSES).toEqual([
    'course-invalid',
    'unknown-kind',
    'part-missing',
    'content-missing',
    'content-unexpected',
    'outline-invalid',
  ]);
});

it('offers exactly the commands check, build, init, targets and help', () => {
  const commands = api.USAGE.split('\n')
    .filter((line) => /^ {2}\S/.test(line))
    .map((line) => line.trim().split(/\s{2,}/)[0]);
  expect(commands).toEqual([
    'check <dir> [--json]',
    'build <dir> --target <name>',
    'build <dir> --all-typeset',
    'init <dir> [--title <title>]',
    'targets <dir> [--typeset]',
    'help [<command>]',
  ]);
  expect(Object.keys(api.COMMAND_USAGE)).toEqual(['check', 'build', 'init', 'targets', 'help']);
  expect(api.USAGE).toContain('Exit codes: 0 ok, 1 check diagnostics, 2 build error or bad usage.');
});
