-- Entries ranked for a text (BM25 over their lowercased words, heading and text together),
-- with a snippet of whole words around the first word found; filters by code, logbook and
-- date range.
-- DuckDB's fts extension is not in the Python wheel and nothing downloads extensions at run
-- time, so the ranking is computed here; a logbook store holds thousands of entries, not
-- millions, and the scan takes milliseconds.
-- $text: the words to look for
-- $code: only entries labelled with this code (default: any)
-- $logbook: only this logbook (default: all)
-- $since: only entries dated on or after this ISO date (default: any)
-- $until: only entries dated on or before this ISO date (default: any)
-- $limit = 20: at most this many entries
-- reads: entries, labels
WITH docs AS (
    SELECT e.logbook, e.seq, e.heading, e.text, e.date,
           list_filter(regexp_split_to_array(lower(coalesce(e.heading, '') || ' '
                                                   || coalesce(e.text, '')), '[^[:alnum:]_]+'),
                       lambda w: w <> '') AS words
    FROM entries e
    WHERE ($logbook IS NULL OR e.logbook = $logbook)
      AND ($since IS NULL OR e.date >= CAST($since AS DATE))
      AND ($until IS NULL OR e.date <= CAST($until AS DATE))
      AND ($code IS NULL OR EXISTS (SELECT 1 FROM labels l WHERE l.logbook = e.logbook
                                    AND l.seq = e.seq AND l.code = $code))
),
terms AS (
    SELECT DISTINCT unnest(list_filter(regexp_split_to_array(lower($text), '[^[:alnum:]_]+'),
                                       lambda w: w <> '')) AS term
),
corpus AS (SELECT count(*) AS n, avg(len(words)) AS avg_words FROM docs),
found AS (  -- each query word in each entry, counted
    SELECT d.logbook, d.seq, w.word AS term, count(*) AS tf
    FROM (SELECT logbook, seq, unnest(words) AS word FROM docs) w
    JOIN terms t ON t.term = w.word
    JOIN docs d USING (logbook, seq)
    GROUP BY ALL
),
spread AS (SELECT term, count(*) AS df FROM found GROUP BY term),
scored AS (  -- BM25 with k1 = 1.2, b = 0.75
    SELECT f.logbook, f.seq,
           sum(ln(1 + (k.n - s.df + 0.5) / (s.df + 0.5))
               * f.tf * 2.2 / (f.tf + 1.2 * (0.25 + 0.75 * len(d.words) / k.avg_words))) AS score,
           count(*) AS matched_terms
    FROM found f JOIN spread s USING (term) JOIN docs d USING (logbook, seq) CROSS JOIN corpus k
    GROUP BY ALL
),
pattern AS (SELECT '(?i)\b(' || string_agg(term, '|') || ')\b' AS words FROM terms)
SELECT d.logbook, d.seq, d.date, round(s.score, 3) AS score,
       -- whole words of up to 30 characters around it, 4 before and 8 after (the match opens
       -- and closes at a space or the text's end), else the text's first whole words
       trim(regexp_replace(coalesce(nullif(regexp_extract(d.text,
           '(?:^|\s)(?:\S{1,30}\s+){0,4}\S{0,30}' || p.words || '\S{0,30}(?:\s+\S{1,30}){0,8}(?:\s|$)'),
           ''), regexp_extract(d.text, '^\s*(?:\S{1,30}(?:\s+|$)){0,12}')),
           '\s+', ' ', 'g')) AS snippet,
       d.heading
FROM scored s JOIN docs d USING (logbook, seq) CROSS JOIN pattern p
ORDER BY s.matched_terms DESC, s.score DESC, d.logbook, d.seq
LIMIT $limit
