/** Whether the database refused a row for a unique index (SQLite and PostgreSQL spell it differently). */
export const isUniqueViolation = (err: unknown): boolean => {
  const { code, message } = err as { code?: string; message?: string };
  return code === '23505' || (code === 'SQLITE_CONSTRAINT' && /UNIQUE/.test(message ?? ''));
};
