const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an id from outside can name a row: anything else is refused before a query. */
export const isUuid = (value: string) => UUID.test(value);
