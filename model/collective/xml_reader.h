#pragma once
// A small strict XML reader for schedule files (MSCCL algorithm XML): elements, attributes,
// comments, an optional <?xml ...?> declaration. No DTDs, CDATA or text content; every element
// keeps the line it starts on so errors can name it.

#include <map>
#include <string>
#include <vector>

#include "model/core/error.h"

namespace mt {

/// Malformed XML: the message is "LINE: what" (the caller prefixes the file name); location()
/// has the line.
class XmlError : public Error {
 public:
  using Error::Error;
};

/// One element: its name, attributes (unescaped values), children and the line of its '<'.
struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::vector<XmlElement> children;
  int line = 0;  ///< 1-based line of the element's start tag
};

/// Parses a whole document and returns its root element. Throws XmlError ("12: expected '>'
/// after attribute 'cnt' of <step>") on anything outside the subset: unbalanced or mismatched
/// tags, repeated attributes, unquoted values, unknown entities, text between elements, more
/// than one root.
XmlElement parse_xml(const std::string& text);

}  // namespace mt
