/// Renders an ``EntityDiagram`` in Graphviz's DOT language: one table per entity (name, then
/// attributes), an edge per relationship pair with both cardinalities, a hollow arrow for
/// inheritance. A step's changes are coloured — green added, red and dashed removed, amber
/// changed — and also spelled out (`[added]`), so they survive printing in black and white.
public enum DotRenderer {
  private static func colors(_ mark: EntityDiagram.Mark) -> (line: String, fill: String) {
    switch mark {
    case .unchanged: ("#57606a", "#f6f8fa")
    case .added: ("#1a7f37", "#dafbe1")
    case .removed: ("#cf222e", "#ffebe9")
    case .changed: ("#9a6700", "#fff8c5")
    }
  }

  public static func render(_ diagram: EntityDiagram) -> String {
    var lines = [
      "digraph \(quote(diagram.title)) {",
      "  graph [rankdir=LR, fontname=\"Helvetica\", label=\(quote(diagram.title)), labelloc=t];",
      "  node [shape=plain, fontname=\"Helvetica\", fontsize=11];",
      "  edge [fontname=\"Helvetica\", fontsize=10];",
    ]
    for entity in diagram.entities {
      let (line, fill) = colors(entity.mark)
      var title = "<b>\(html(entity.name))</b>"
      if entity.isAbstract { title = "<i>\(title)</i> «abstract»" }
      if entity.mark != .unchanged { title += " [\(entity.mark.rawValue)]" }
      var rows = [
        "<tr><td bgcolor=\"\(fill)\">\(title)</td></tr>"
      ]
      for attribute in entity.attributes {
        var text = html("\(attribute.name): \(attribute.type)\(attribute.isOptional ? "?" : "")")
        if attribute.isTransient { text += " (transient)" }
        if attribute.mark != .unchanged {
          text += " [\(attribute.mark.rawValue)]"
        }
        if attribute.mark == .removed { text = "<s>\(text)</s>" }
        let (attributeColor, _) = colors(attribute.mark)
        rows.append(
          "<tr><td align=\"left\"><font color=\"\(attributeColor)\">\(text)</font></td></tr>")
      }
      let style = entity.mark == .removed ? " style=\"dashed\"" : ""
      lines.append(
        "  \(quote(entity.name)) [color=\(quote(line)), label=<<table border=\"1\" cellborder=\"0\" cellspacing=\"0\" cellpadding=\"4\" color=\"\(line)\"\(style)>\(rows.joined())</table>>];"
      )
    }
    for entity in diagram.entities {
      guard let parent = entity.parent else { continue }
      lines.append("  \(quote(parent)) -> \(quote(entity.name)) [dir=back, arrowtail=empty, label=\"inherits\"];")
    }
    for link in diagram.links {
      let (color, _) = colors(link.mark)
      var label = link.name + (link.inverseName.map { " / \($0)" } ?? "")
      if link.mark != .unchanged { label += " [\(link.mark.rawValue)]" }
      var attributes = [
        "label=\(quote(label))", "headlabel=\(quote(link.cardinality))", "color=\(quote(color))",
        "fontcolor=\(quote(color))",
      ]
      if let inverse = link.inverseCardinality {
        attributes.append("taillabel=\(quote(inverse))")
        attributes.append("arrowhead=none")
      }
      if link.mark == .removed { attributes.append("style=dashed") }
      lines.append("  \(quote(link.from)) -> \(quote(link.to)) [\(attributes.joined(separator: ", "))];")
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// A DOT quoted string.
  private static func quote(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  /// Text escaped for an HTML-like label.
  private static func html(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
