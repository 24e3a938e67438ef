#include "model/collective/msccl_program.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "model/collective/schedule.h"
#include "model/core/parse_integer.h"

namespace mt {

namespace {

constexpr MscclStepType kTypes[] = {
    {"s", true, false, false},    {"r", false, true, false},  {"rcs", true, true, false},
    {"rrs", true, true, true},    {"rrc", false, true, true}, {"rrcs", true, true, true},
    {"cpy", false, false, false}, {"re", false, false, true}, {"nop", false, false, false},
};

}  // namespace

MscclProgram::MscclProgram(const XmlElement& root, std::string file)
    : root_(root), file_(std::move(file)) {
  read_algo();
}

std::string MscclProgram::where(const XmlElement& e) const {
  std::string tag = "<" + e.name;
  for (const char* key : {"id", "s"}) {
    const auto it = e.attributes.find(key);
    if (it != e.attributes.end()) tag += std::string(" ") + key + "=\"" + it->second + "\"";
  }
  tag += ">";
  const auto ctx = context_.find(&e);
  ErrorLocation at;
  at.file = file_;
  at.line = e.line;
  return at.where() + ": " + tag + (ctx == context_.end() ? "" : ctx->second);
}

void MscclProgram::fail(const XmlElement& e, const std::string& what) const {
  ErrorLocation at;
  at.file = file_;
  at.line = e.line;
  throw ScheduleError(where(e) + ": " + what, at);
}

void MscclProgram::check_keys(const XmlElement& e, const std::set<std::string>& known) const {
  for (const auto& [key, value] : e.attributes)
    if (!known.count(key)) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      fail(e, "unknown attribute '" + key + "' (known: " + list + ")");
    }
}

long long MscclProgram::integer(const XmlElement& e, const std::string& key, long long lo,
                                long long hi, std::optional<long long> fallback) const {
  const auto it = e.attributes.find(key);
  if (it == e.attributes.end()) {
    if (fallback) return *fallback;
    fail(e, "missing attribute '" + key + "'");
  }
  const std::string& s = it->second;
  const std::optional<long long> parsed = parse_integer(s);
  if (!parsed) fail(e, key + "=\"" + s + "\": expected an integer");
  const long long v = *parsed;
  if (v < lo || v > hi)
    fail(e,
         key + "=\"" + s + "\" is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  return v;
}

std::string MscclProgram::text(const XmlElement& e, const std::string& key,
                               const std::string& fallback) const {
  const auto it = e.attributes.find(key);
  return it == e.attributes.end() ? fallback : it->second;
}

void MscclProgram::read_algo() {
  if (root_.name != "algo") fail(root_, "expected the root element <algo> of an MSCCL algorithm");
  // Older files omit coll and ngpus: an all-reduce of as many ranks as <gpu> elements.
  const std::string coll = text(root_, "coll", "allreduce");
  if (coll != "allreduce")
    fail(root_, "coll=\"" + coll +
                    "\": only all-reduce algorithms (coll=\"allreduce\") are schedules here");
  long long gpu_elements = 0;
  for (const XmlElement& g : root_.children) gpu_elements += g.name == "gpu" ? 1 : 0;
  ngpus = static_cast<int>(integer(root_, "ngpus", 1, 4096, gpu_elements));
  // i and o are one buffer here: an out-of-place program (inplace="0") runs in place and is
  // verified so (a step that reads its input after the output slot was written fails there).
  (void)integer(root_, "inplace", 0, 1, 1);
  nchunks = static_cast<int>(integer(root_, "nchunksperloop", 1, 1 << 20));
  name = text(root_, "name", "msccl");
  topology = text(root_, "mtsim_topology", "");
  gpus.assign(static_cast<std::size_t>(ngpus), MscclGpu());
  for (const XmlElement& g : root_.children) {
    if (g.name != "gpu") fail(g, "unknown element inside <algo>; expected <gpu>");
    check_keys(g, {"id", "i_chunks", "o_chunks", "s_chunks"});
    const int id = static_cast<int>(integer(g, "id", 0, ngpus - 1));
    MscclGpu& gpu = gpus[static_cast<std::size_t>(id)];
    if (gpu.xml != nullptr)
      fail(g, "gpu " + std::to_string(id) + " given twice (also line " +
                  std::to_string(gpu.xml->line) + ")");
    gpu.xml = &g;
    gpu.scratch_chunks = static_cast<int>(integer(g, "s_chunks", 0, 1 << 20, -1));
    scratch_chunks = std::max(scratch_chunks, gpu.scratch_chunks);
    read_gpu(id, gpu);
  }
  for (int id = 0; id < ngpus; ++id)
    if (gpus[static_cast<std::size_t>(id)].xml == nullptr)
      fail(root_, "ngpus=\"" + std::to_string(ngpus) + "\" but there is no <gpu id=\"" +
                      std::to_string(id) + "\">");
}

void MscclProgram::read_gpu(int id, MscclGpu& gpu) {
  std::map<int, std::size_t> by_id;
  for (const XmlElement& t : gpu.xml->children) {
    if (t.name != "tb") fail(t, "unknown element inside <gpu>; expected <tb>");
    context_[&t] = " of gpu " + std::to_string(id);
    check_keys(t, {"id", "send", "recv", "chan"});
    MscclTb tb;
    tb.xml = &t;
    tb.id = static_cast<int>(integer(t, "id", 0, 1 << 20));
    tb.send = static_cast<int>(integer(t, "send", -1, ngpus - 1));
    tb.recv = static_cast<int>(integer(t, "recv", -1, ngpus - 1));
    tb.chan = static_cast<int>(integer(t, "chan", 0, 1 << 20));
    if (tb.send == id || tb.recv == id)
      fail(t, "a thread block cannot send to or receive from its own gpu");
    if (!by_id.emplace(tb.id, gpu.tbs.size()).second)
      fail(t, "thread block id given twice on this gpu");
    gpu.tbs.push_back(tb);
  }
  for (MscclTb& tb : gpu.tbs) {
    for (const XmlElement& s : tb.xml->children) {
      if (s.name != "step") fail(s, "unknown element inside <tb>; expected <step>");
      context_[&s] = " of gpu " + std::to_string(id) + " tb " + std::to_string(tb.id);
      tb.steps.push_back(read_step(s, static_cast<int>(tb.steps.size()), tb, gpu.scratch_chunks));
    }
  }
  // Cross-block dependencies: depid is a thread block id, deps a step of it.
  for (MscclTb& tb : gpu.tbs)
    for (MscclStep& st : tb.steps) {
      const long long depid = integer(*st.xml, "depid", -1, 1 << 20, -1);
      const long long deps = integer(*st.xml, "deps", -1, 1 << 20, -1);
      if (depid < 0) continue;
      const auto it = by_id.find(static_cast<int>(depid));
      const std::string dep_text = "dangling dependency depid=\"" + std::to_string(depid) +
                                   "\" deps=\"" + std::to_string(deps) + "\": ";
      if (it == by_id.end())
        fail(*st.xml, dep_text + "gpu " + std::to_string(id) + " has no thread block " +
                          std::to_string(depid));
      const MscclTb& target = gpu.tbs[it->second];
      if (deps < 0 || deps >= static_cast<long long>(target.steps.size()))
        fail(*st.xml, dep_text + "thread block " + std::to_string(depid) + " has " +
                          std::to_string(target.steps.size()) + " steps");
      st.dep_tb = static_cast<int>(it->second);
      st.dep_step = static_cast<int>(deps);
    }
  for (const MscclTb& tb : gpu.tbs)
    for (const MscclStep& st : tb.steps) {
      if (st.dep_tb < 0) continue;
      const MscclStep& target =
          gpu.tbs[static_cast<std::size_t>(st.dep_tb)].steps[static_cast<std::size_t>(st.dep_step)];
      if (!target.hasdep)
        fail(*target.xml,
             "gpu " + std::to_string(id) + " tb " + std::to_string(tb.id) + " step " +
                 st.xml->attributes.at("s") + " (line " + std::to_string(st.xml->line) +
                 ") waits for it, but it has hasdep=\"0\": the MSCCL runtime would never "
                 "signal it");
    }
}

std::pair<Buffer, int> MscclProgram::slot(const XmlElement& e, const char* buf_key,
                                          const char* off_key) const {
  const std::string buf = text(e, buf_key, "i");
  if (buf != "i" && buf != "o" && buf != "s")
    fail(e, std::string(buf_key) + "=\"" + buf + "\": expected i, o or s");
  // The range is checked once the step's type says whether the reference is this gpu's (a
  // send's dstoff and a receive's srcoff name the peer's buffer).
  const int off = static_cast<int>(integer(e, off_key, -1, 1 << 20, -1));
  return {buf == "s" ? Buffer::kScratch : Buffer::kData, off};
}

MscclStep MscclProgram::read_step(const XmlElement& e, int index, const MscclTb& tb,
                                  int gpu_scratch) {
  check_keys(e, {"s", "type", "srcbuf", "srcoff", "dstbuf", "dstoff", "cnt", "depid", "deps",
                 "hasdep", "mtsim_id", "mtsim_step", "mtsim_flow"});
  MscclStep st;
  st.xml = &e;
  if (integer(e, "s", 0, 1 << 20) != index)
    fail(e, "s=\"" + e.attributes.at("s") + "\" but it is step " + std::to_string(index) +
                " of its thread block (steps are numbered from 0 in order)");
  const std::string type = text(e, "type", "");
  for (const MscclStepType& t : kTypes)
    if (type == t.name) st.type = &t;
  if (st.type == nullptr)
    fail(e,
         "unknown step type \"" + type + "\" (expected s, r, rcs, rrs, rrc, rrcs, cpy, re or nop)");
  st.hasdep = integer(e, "hasdep", 0, 1, 0) == 1;
  st.mt_id = integer(e, "mtsim_id", 0, 1ll << 40, -1);
  st.mt_step = static_cast<int>(integer(e, "mtsim_step", 0, 1 << 30, -1));
  st.mt_flow = static_cast<int>(integer(e, "mtsim_flow", 0, 1 << 30, -1));
  if (type == "nop") return st;
  const auto [src_buf, src] = slot(e, "srcbuf", "srcoff");
  const auto [dst_buf, dst] = slot(e, "dstbuf", "dstoff");
  st.cnt = static_cast<int>(integer(e, "cnt", 0, 1 << 20, 1));
  const auto text_of = [](Buffer b, int off) { return slot_text(b, off); };
  if (type == "cpy" || type == "re") {
    if (src < 0 || dst < 0)
      fail(e, "a local " + std::string(type == "cpy" ? "copy" : "reduction") +
                  " needs srcoff and dstoff");
    if (src_buf == dst_buf && src == dst) {
      if (type == "re") fail(e, "reduces " + text_of(src_buf, src) + " into itself");
      return st;  // a copy onto itself moves nothing: ordering only (as `nop`)
    }
  }
  if (st.cnt < 1) fail(e, "cnt=\"0\": a step moves at least one chunk");
  // Normalise by type: the slot the sending part reads, the slot the receiving part writes.
  const auto pick = [](Buffer b1, int o1, Buffer b2, int o2) {
    return o1 >= 0 ? std::pair<Buffer, int>{b1, o1} : std::pair<Buffer, int>{b2, o2};
  };
  std::pair<Buffer, int> read{Buffer::kData, -1};
  std::pair<Buffer, int> write{Buffer::kData, -1};
  if (type == "s") {
    read = pick(src_buf, src, dst_buf, dst);
  } else if (type == "r" || type == "rcs") {
    write = pick(dst_buf, dst, src_buf, src);
  } else if (type == "rrs") {
    write = pick(src_buf, src, dst_buf, dst);
  } else if (type == "rrc" || type == "rrcs") {
    write = pick(dst_buf, dst, src_buf, src);
    if (src >= 0 && dst >= 0 && (src_buf != dst_buf || src != dst))
      fail(e, "adds the received chunks to " + text_of(src_buf, src) + " and writes the sum to " +
                  text_of(dst_buf, dst) +
                  ": an mtsim receive reduces in place (srcbuf/srcoff equal to dstbuf/dstoff); "
                  "write a cpy step first");
  } else {  // cpy, re
    read = {src_buf, src};
    write = {dst_buf, dst};
  }
  if (st.type->send && st.type->recv) read = write;  // rcs, rrs, rrcs forward what they hold
  if (read.second < 0 && write.second < 0)
    fail(e, "names no chunk (srcoff and dstoff are both -1)");
  for (const auto& [buffer, first] : {read, write}) {
    if (first < 0) continue;
    const int slots = buffer == Buffer::kScratch ? gpu_scratch : nchunks;
    if (slots >= 0 && first + st.cnt > slots)
      fail(e, std::string(buffer == Buffer::kScratch ? "scratch slots " : "chunks ") +
                  std::to_string(first) + ".." + std::to_string(first + st.cnt - 1) + " run past " +
                  (buffer == Buffer::kScratch ? "s_chunks=\"" : "nchunksperloop=\"") +
                  std::to_string(slots) + "\"");
    if (buffer == Buffer::kScratch) scratch_chunks = std::max(scratch_chunks, first + st.cnt);
  }
  st.read_buf = read.first;
  st.read = read.second;
  st.write_buf = write.first;
  st.write = write.second;
  if (st.type->send && tb.send < 0) fail(e, "a sending step in a thread block with send=\"-1\"");
  if (st.type->recv && tb.recv < 0) fail(e, "a receiving step in a thread block with recv=\"-1\"");
  return st;
}

// Connection (from, to, chan): the k-th send of the sender's thread block is the k-th receive

}  // namespace mt
