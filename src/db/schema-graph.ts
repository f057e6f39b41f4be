import type { Executor } from './unit-of-work.js';

/** A foreign key of one column: `table.column` references `refTable.refColumn`. */
export interface ForeignKey {
  table: string;
  column: string;
  refTable: string;
  refColumn: string;
}

/** The tables of the database as it is now, with their columns and foreign keys. */
export interface SchemaGraph {
  columns: Map<string, Set<string>>;
  foreignKeys: ForeignKey[];
}

const isPg = (db: Executor): boolean => db.client.config.client === 'pg';

/**
 * Reads the schema from the database itself (SQLite's pragmas, PostgreSQL's information
 * schema), so what is derived from it follows every migration without a list to keep.
 */
export async function readSchemaGraph(db: Executor): Promise<SchemaGraph> {
  return isPg(db) ? readPostgres(db) : readSqlite(db);
}

async function readSqlite(db: Executor): Promise<SchemaGraph> {
  const tables: string[] = await db('sqlite_master')
    .where({ type: 'table' })
    .whereNot('name', 'like', 'sqlite_%')
    .pluck('name');
  const columns = new Map<string, Set<string>>();
  const foreignKeys: ForeignKey[] = [];
  for (const table of tables) {
    const info = (await db.raw('select name from pragma_table_info(?)', [table])) as Array<{ name: string }>;
    columns.set(table, new Set(info.map((column) => column.name)));
    const keys = (await db.raw('select "from", "table", "to" from pragma_foreign_key_list(?)', [table])) as Array<{
      from: string;
      table: string;
      to: string;
    }>;
    for (const key of keys) foreignKeys.push({ table, column: key.from, refTable: key.table, refColumn: key.to });
  }
  return { columns, foreignKeys };
}

async function readPostgres(db: Executor): Promise<SchemaGraph> {
  const rows = (
    await db.raw(
      `select c.table_name, c.column_name
         from information_schema.columns c
         join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'`,
    )
  ).rows as Array<{ table_name: string; column_name: string }>;
  const columns = new Map<string, Set<string>>();
  for (const row of rows) {
    const own = columns.get(row.table_name) ?? new Set<string>();
    own.add(row.column_name);
    columns.set(row.table_name, own);
  }
  const keys = (
    await db.raw(
      `select kcu.table_name as table, kcu.column_name as column, ccu.table_name as ref_table,
              ccu.column_name as ref_column
         from information_schema.table_constraints tc
         join information_schema.key_column_usage kcu
           on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
         join information_schema.constraint_column_usage ccu
           on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
        where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()`,
    )
  ).rows as Array<{ table: string; column: string; ref_table: string; ref_column: string }>;
  return {
    columns,
    foreignKeys: keys.map((key) => ({
      table: key.table,
      column: key.column,
      refTable: key.ref_table,
      refColumn: key.ref_column,
    })),
  };
}
