/// Renders an ``EntityDiagram`` as a Mermaid class diagram, which GitHub and GitLab draw in
/// Markdown: one class per entity with its attributes, a link per relationship pair with both
/// cardinalities, `<|--` for inheritance. A step's changes show as annotations on the entities
/// (`<<added>>`, `<<removed>>`, `<<changed>>`) and as `[added]`, `[removed]`, `[changed]` after
/// attributes and link labels, which need no styling support to be read.
public enum MermaidRenderer {
  public static func render(_ diagram: EntityDiagram) -> String {
    var lines = ["---", "title: \(diagram.title)", "---", "classDiagram", "  direction LR"]
    for entity in diagram.entities {
      var annotations: [String] = []
      if entity.isAbstract { annotations.append("abstract") }
      if entity.mark != .unchanged { annotations.append(entity.mark.rawValue) }
      if entity.attributes.isEmpty && annotations.isEmpty {
        lines.append("  class \(name(entity.name))")
        continue
      }
      lines.append("  class \(name(entity.name)) {")
      if !annotations.isEmpty { lines.append("    <<\(annotations.joined(separator: ", "))>>") }
      for attribute in entity.attributes {
        var text = "\(attribute.name) : \(attribute.type.replacingOccurrences(of: " ", with: ""))"
        if attribute.isOptional { text += "?" }
        if attribute.isTransient { text += " transient" }
        if attribute.mark != .unchanged { text += " [\(attribute.mark.rawValue)]" }
        lines.append("    \(clean(text))")
      }
      lines.append("  }")
    }
    for entity in diagram.entities {
      if let parent = entity.parent { lines.append("  \(name(parent)) <|-- \(name(entity.name))") }
    }
    for link in diagram.links {
      var label = link.name + (link.inverseName.map { " / \($0)" } ?? "")
      if link.mark != .unchanged { label += " [\(link.mark.rawValue)]" }
      let near = link.inverseCardinality.map { "\"\($0)\" " } ?? ""
      let arrow = link.inverseName == nil ? "-->" : "--"
      lines.append("  \(name(link.from)) \(near)\(arrow) \"\(link.cardinality)\" \(name(link.to)) : \(clean(label))")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A class name Mermaid accepts: letters, digits and `_`, others replaced by `_`.
  private static func name(_ text: String) -> String {
    String(text.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
  }

  /// Text without the characters that would end a Mermaid statement or make a member a method.
  private static func clean(_ text: String) -> String {
    String(text.map { "(){};\"".contains($0) ? "_" : $0 })
  }
}
