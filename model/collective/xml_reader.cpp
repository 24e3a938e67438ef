#include "model/collective/xml_reader.h"

#include <cstdio>

#include <cctype>

namespace mt {
namespace {

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  XmlElement document() {
    if (starts_with("\xEF\xBB\xBF")) pos_ = 3;  // a UTF-8 byte-order mark, as XML allows
    skip_misc();
    if (starts_with("<?xml")) {
      const std::size_t end = s_.find("?>", pos_);
      if (end == std::string::npos) fail("unterminated <?xml declaration");
      advance_to(end + 2);
      skip_misc();
    }
    if (at_end()) fail("expected the root element: the file is empty");
    if (s_[pos_] != '<') {
      const unsigned char c = static_cast<unsigned char>(s_[pos_]);
      char shown[16];
      std::snprintf(shown, sizeof shown, std::isprint(c) ? "'%c'" : "byte 0x%02x", c);
      fail(std::string("not XML: expected the root element, found ") + shown +
           (c == '{' ? " (JSON? mtsim reads a schedule file as MSCCL XML by its .xml extension and "
                       "`mtsim import` reads XML only: a JSON schedule file needs another name)"
                     : ""));
    }
    XmlElement root = element();
    skip_misc();
    if (!at_end()) fail("text or a second root element after </" + root.name + ">");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    ErrorLocation at;
    at.line = line_;
    throw XmlError(std::to_string(line_) + ": " + what, at);
  }
  bool at_end() const { return pos_ >= s_.size(); }
  bool starts_with(const char* p) const {
    return s_.compare(pos_, std::char_traits<char>::length(p), p) == 0;
  }
  void advance_to(std::size_t to) {
    for (; pos_ < to && pos_ < s_.size(); ++pos_)
      if (s_[pos_] == '\n') ++line_;
  }
  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(s_[pos_]))) advance_to(pos_ + 1);
  }
  // Whitespace and comments.
  void skip_misc() {
    for (;;) {
      skip_space();
      if (!starts_with("<!--")) return;
      const std::size_t end = s_.find("-->", pos_ + 4);
      if (end == std::string::npos) fail("unterminated comment");
      advance_to(end + 3);
    }
  }
  static bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
           c == ':';
  }
  std::string name(const char* what) {
    const std::size_t start = pos_;
    while (!at_end() && name_char(s_[pos_])) ++pos_;
    if (pos_ == start) fail(std::string("expected ") + what);
    return s_.substr(start, pos_ - start);
  }
  std::string unescape(const std::string& raw) const {
    std::string out;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '&') {
        out += raw[i];
        continue;
      }
      const std::size_t semi = raw.find(';', i);
      const std::string entity =
          semi == std::string::npos ? raw.substr(i) : raw.substr(i, semi - i + 1);
      if (entity == "&lt;")
        out += '<';
      else if (entity == "&gt;")
        out += '>';
      else if (entity == "&amp;")
        out += '&';
      else if (entity == "&quot;")
        out += '"';
      else if (entity == "&apos;")
        out += '\'';
      else
        fail("unknown entity \"" + entity + "\"");
      i = semi;
    }
    return out;
  }

  XmlElement element() {
    XmlElement e;
    e.line = line_;
    advance_to(pos_ + 1);  // '<'
    e.name = name("an element name after '<'");
    for (;;) {
      const std::size_t before = pos_;
      skip_space();
      if (at_end()) fail("unterminated start tag <" + e.name + ">");
      if (starts_with("/>")) {
        advance_to(pos_ + 2);
        return e;
      }
      if (s_[pos_] == '>') {
        advance_to(pos_ + 1);
        break;
      }
      if (pos_ == before) fail("expected whitespace before an attribute of <" + e.name + ">");
      const std::string key = name("an attribute name or '>'");
      skip_space();
      if (at_end() || s_[pos_] != '=')
        fail("expected '=' after attribute '" + key + "' of <" + e.name + ">");
      advance_to(pos_ + 1);
      skip_space();
      if (at_end() || (s_[pos_] != '"' && s_[pos_] != '\''))
        fail("the value of attribute '" + key + "' of <" + e.name + "> must be quoted");
      const char quote = s_[pos_];
      const std::size_t end = s_.find(quote, pos_ + 1);
      if (end == std::string::npos) fail("unterminated value of attribute '" + key + "'");
      const std::string raw = s_.substr(pos_ + 1, end - pos_ - 1);
      if (raw.find('<') != std::string::npos) fail("'<' in the value of attribute '" + key + "'");
      const std::string value = unescape(raw);
      if (!e.attributes.emplace(key, value).second)
        fail("attribute '" + key + "' given twice in <" + e.name + ">");
      advance_to(end + 1);
    }
    for (;;) {  // children until the end tag
      skip_misc();
      if (at_end()) fail("<" + e.name + "> (line " + std::to_string(e.line) + ") is never closed");
      if (s_[pos_] != '<') fail("unexpected text inside <" + e.name + ">");
      if (starts_with("</")) {
        advance_to(pos_ + 2);
        const std::string closing = name("an element name after '</'");
        if (closing != e.name)
          fail("</" + closing + "> closes <" + e.name + "> of line " + std::to_string(e.line));
        skip_space();
        if (at_end() || s_[pos_] != '>') fail("expected '>' after </" + closing);
        advance_to(pos_ + 1);
        return e;
      }
      if (starts_with("<!") || starts_with("<?"))
        fail("unsupported markup (DTD, CDATA or processing instruction)");
      e.children.push_back(element());
    }
  }

  const std::string& s_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

XmlElement parse_xml(const std::string& text) {
  return Parser(text).document();
}

}  // namespace mt
