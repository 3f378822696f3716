"""Rulebooks: Markdown chapters with jinja2 laid out in two columns by reportlab platypus. The book and its
page furniture (book), the cover (cover), the chapter source and its located errors (source), Markdown to
flowables (markdown, flowables, tables), the styles (style), and the stack figure: a pile of real card faces
drawn as the table shows it (stackfig).

May import: core, data (FaceSpec), render's base and render.faces."""
