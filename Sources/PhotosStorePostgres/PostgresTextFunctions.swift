/// The `ph_text_*` functions predicates compile to (`SQLFilterCompiler`), in SQL: SQLite runs
/// Swift's (`TextMatching`), PostgreSQL these. `[c]` lowercases with ICU's root locale, `[d]`
/// decomposes (NFD) and drops combining marks, as Foundation's `folding(options:)` does for
/// the Latin, Greek and Cyrillic scripts; `LIKE` takes `*` and `?`; a `NULL` matches nothing.
/// The tests compare both engines on the same predicates.
enum PostgresTextFunctions {
    static let statements: [String] = [
        #"""
        CREATE FUNCTION ph_text_fold(s TEXT, options BIGINT) RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT (CASE
                WHEN (options & 2) <> 0 THEN regexp_replace(
                    normalize(CASE WHEN (options & 1) <> 0 THEN lower(s COLLATE "und-x-icu") ELSE s END, NFD),
                    '[\u0300-\u036F\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]', '', 'g')
                WHEN (options & 1) <> 0 THEN lower(s COLLATE "und-x-icu")
                ELSE s
            END) COLLATE "C"
        $$
        """#,
        """
        CREATE FUNCTION ph_text_equal(a TEXT, b TEXT, options BIGINT) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT COALESCE(ph_text_fold(a, options) = ph_text_fold(b, options), false)
        $$
        """,
        """
        CREATE FUNCTION ph_text_contains(a TEXT, b TEXT, options BIGINT) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT COALESCE(a IS NOT NULL AND (b = '' OR strpos(ph_text_fold(a, options), ph_text_fold(b, options)) > 0), false)
        $$
        """,
        """
        CREATE FUNCTION ph_text_beginswith(a TEXT, b TEXT, options BIGINT) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT COALESCE(starts_with(ph_text_fold(a, options), ph_text_fold(b, options)), false)
        $$
        """,
        """
        CREATE FUNCTION ph_text_endswith(a TEXT, b TEXT, options BIGINT) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT COALESCE(right(ph_text_fold(a, options), char_length(ph_text_fold(b, options)))
                = ph_text_fold(b, options) AND char_length(ph_text_fold(b, options)) <= char_length(ph_text_fold(a, options)), false)
        $$
        """,
        #"""
        CREATE FUNCTION ph_text_like(a TEXT, b TEXT, options BIGINT) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT COALESCE(ph_text_fold(a, options) LIKE replace(replace(
                replace(replace(replace(ph_text_fold(b, options), '\', '\\'), '%', '\%'), '_', '\_'),
                '*', '%'), '?', '_'), false)
        $$
        """#,
    ]
}
