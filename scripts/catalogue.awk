# Reads a language catalogue (client/i18n/<lang>.txt; its format: client/i18n/catalogue.rs) for
# scripts/build-client.sh: prints the texts of the sections named in `want` (" common local "),
# one per line in the file's order — or, with -v json=1, those sections' entries as the inside
# of a JSON object ("key":"text",…), for index.html. The lines are read as catalogue.rs reads
# them: trimmed, « # » comments and blank lines skipped, « [section] », « key = text ».
{
    line = $0
    sub(/^[ \t]+/, "", line)
    sub(/[ \t\r]+$/, "", line)
}
line == "" || substr(line, 1, 1) == "#" { next }
line ~ /^\[[a-z0-9_]+\]$/ { section = substr(line, 2, length(line) - 2); next }
index(want, " " section " ") {
    text = line
    sub(/^[^=]*=[ \t]*/, "", text)
    if (!json) { print text; next }
    key = line
    sub(/[ \t]*=.*$/, "", key)
    gsub(/\\/, "\\\\", text)
    gsub(/"/, "\\\"", text)
    gsub(/</, "\\u003c", text) # never « </script> » inside the page's script
    printf "%s\"%s\":\"%s\"", sep, key, text
    sep = ","
}
