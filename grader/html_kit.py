"""The HTML of the instructor's reports (the class report, the similarity
report): one page style, escaping, tables. Everything shown is escaped
unless it is Markup built here from escaped parts: failure messages and file
contents are the students' text."""
import html


STYLE = """body{font-family:system-ui,sans-serif;max-width:70rem;margin:1rem auto;padding:0 1rem;
color:#1a1a1a;line-height:1.4}table{border-collapse:collapse;margin:.5rem 0 1rem}
th,td{border:1px solid #bbb;padding:.2rem .5rem;text-align:left;vertical-align:top}
td{overflow-wrap:anywhere}th{background:#eef2f7}
td.n{white-space:nowrap;text-align:right;font-variant-numeric:tabular-nums}
code,pre{font-size:.85rem;overflow-wrap:anywhere}pre{white-space:pre-wrap;margin:0}
figure{margin:1rem 0}
svg{max-width:100%;height:auto}.note{background:#fff8dc;border:1px solid #d9c77a;padding:.5rem}
mark{background:#ffe08a}div.table{overflow-x:auto}summary{cursor:pointer;margin:.2rem 0}
span.word{white-space:nowrap}div.figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(30rem,1fr));gap:0 1rem}"""


def escaped(value):
    """Text for HTML: everything shown is escaped (failure messages and file
    contents are the students' text)."""
    return html.escape(str(value), quote=True)


def html_page(title, body):
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{escaped(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            f"{body}\n</body>\n</html>\n")


def html_table(caption, headers, rows, numeric=()):
    """A table with a caption and column headers; cells are escaped here,
    except those given as Markup (already-built HTML)."""
    # In a scrolling box of its own: a wide table scrolls, not the page.
    out = [f'<div class="table">\n<table>\n<caption>{escaped(caption)}</caption>\n<thead><tr>'
           + "".join(f'<th scope="col">{escaped(h)}</th>' for h in headers)
           + "</tr></thead>\n<tbody>"]
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            text = cell if isinstance(cell, Markup) else escaped(cell)
            cells.append(f'<td class="n">{text}</td>' if i in numeric else f"<td>{text}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody>\n</table>\n</div>")
    return "\n".join(out)


class Markup(str):
    """HTML built here from escaped parts: put in a table cell as it is."""
