/** The public API of cph, the course authoring tool. The `cph` command is `main`. */
export { assembleMarkdown, type AssembledMarkdown } from './src/assemble.js';
export {
  buildAllTypeset,
  buildRootOf,
  buildTarget,
  typesetTargets,
  type BuildOptions,
  type BuildResult,
  type BuiltFile,
} from './src/build.js';
export {
  checkCourse,
  CourseCheckError,
  loadCourse,
  OUTLINE_PROPERTY,
  type CheckOptions,
  type CheckResult,
} from './src/check.js';
export { main, USAGE, type Io } from './src/cli.js';
export { COMMAND_USAGE, version } from './src/usage.js';
export {
  COURSE_FILE,
  COURSE_SCHEMA_FILE,
  readCourseFile,
  type Course,
  type CourseConfig,
  type Part,
  type PartConfig,
  type PartContent,
  type Target,
} from './src/course.js';
export {
  DIAGNOSTIC_CLASSES,
  diagnosticMessage,
  diagnosticsToJson,
  formatDiagnostics,
  formatMessages,
  problemMessage,
  type Diagnostic,
  type DiagnosticClass,
  type MessageJson,
} from './src/diagnostics.js';
export { BuildError, UsageError, type BuildProblem, type BuildRule } from './src/errors.js';
export { headingShiftEdits } from './src/headings.js';
export { classifyUrl, imageDestinations, resolveImage, type ImageDestination, type UrlClass } from './src/images.js';
export {
  CONTENT_KEYWORD,
  compileKind,
  contentExtension,
  createKindAjv,
  FORMAT_EXTENSIONS,
  KindSchemaError,
  KINDS_DIR,
  loadKinds,
  type ContentMarker,
  type ContentProperty,
  type Format,
  type Kind,
  type KindRegistry,
  type Validator,
} from './src/kinds.js';
export { initCourse, TEMPLATE_DIR, type InitOptions, type InitResult } from './src/init.js';
export { checkOutline, type OutlineProblem } from './src/outline.js';
export {
  compileTypeset,
  concatenateTypeset,
  sourceLocation,
  type TypesetResult,
  type TypesetSource,
} from './src/typeset.js';
export { watchCourse, type WatchOptions } from './src/watch.js';
