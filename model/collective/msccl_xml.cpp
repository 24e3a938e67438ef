#include "model/collective/msccl_xml.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

#include "model/collective/schedule_graph.h"
#include "model/collective/xml_reader.h"
#include "model/core/parse_integer.h"

namespace mt {
namespace {

// ---------------------------------------------------------------------------------------------
// Dependency-graph helper shared by import and export.

// Marks every message whose arrival happens before the issue of the messages in `starts`
// (their deps, transitively) with `generation` in `stamp`; stops after `budget` messages.
// Returns false when the budget ran out (the marks are then incomplete).
bool mark_ancestors(const std::vector<std::vector<int>>& deps, const std::vector<int>& starts,
                    std::vector<int>& stamp, int generation, int budget) {
  std::vector<int> stack;
  for (const int s : starts)
    for (const int d : deps[static_cast<std::size_t>(s)]) stack.push_back(d);
  while (!stack.empty()) {
    const int m = stack.back();
    stack.pop_back();
    int& mark = stamp[static_cast<std::size_t>(m)];
    if (mark == generation) continue;
    mark = generation;
    if (--budget < 0) return false;
    for (const int d : deps[static_cast<std::size_t>(m)]) stack.push_back(d);
  }
  return true;
}

constexpr int kSearchBudget = 4096;  // messages visited per ancestry question

// ---------------------------------------------------------------------------------------------
// Import.

struct TypeInfo {
  const char* name;
  bool send;    // the step sends a message on its thread block's send connection
  bool recv;    // the step receives one on its recv connection
  bool reduce;  // the received data is added (else it overwrites)
};

constexpr TypeInfo kTypes[] = {
    {"s", true, false, false},    {"r", false, true, false},   {"rcs", true, true, false},
    {"rrs", true, true, true},    {"rrc", false, true, true},  {"rrcs", true, true, true},
    {"cpy", false, false, false}, {"re", false, false, false}, {"nop", false, false, false},
};

struct Step {
  const XmlElement* xml = nullptr;
  const TypeInfo* type = nullptr;
  int chunk = -1;  // first chunk of the data it moves (-1: none)
  int cnt = 0;
  int dep_tb = -1;  // index into Gpu::tbs, -1 = none
  int dep_step = -1;
  bool hasdep = false;
  long long mt_id = -1;
  int mt_step = -1;
  int mt_flow = -1;
  int recv_msg = -1;  // message this step receives
  int send_msg = -1;  // message this step sends
};

struct Tb {
  const XmlElement* xml = nullptr;
  int id = 0, send = -1, recv = -1, chan = 0;
  std::vector<Step> steps;
};

struct Gpu {
  const XmlElement* xml = nullptr;
  std::vector<Tb> tbs;
};

struct Message {
  int from = 0, to = 0, chunk = 0, cnt = 1;
  OpKind kind = OpKind::kReduce;
  int tb = 0, step = 0;   // sending step: index of the tb on `from`, step index
  std::vector<int> deps;  // message indices
  int level = 0;
};

class Importer {
 public:
  Importer(const XmlElement& root, std::string file) : root_(root), file_(std::move(file)) {}

  Schedule run() {
    read_algo();
    pair_connections();
    derive_dependencies();
    return build();
  }

 private:
  [[noreturn]] void fail(const XmlElement& e, const std::string& what) const {
    std::string tag = "<" + e.name;
    for (const char* key : {"id", "s"}) {
      const auto it = e.attributes.find(key);
      if (it != e.attributes.end()) tag += std::string(" ") + key + "=\"" + it->second + "\"";
    }
    tag += ">";
    const auto ctx = context_.find(&e);
    throw ScheduleError(file_ + ":" + std::to_string(e.line) + ": " + tag +
                        (ctx == context_.end() ? "" : ctx->second) + ": " + what);
  }

  void check_keys(const XmlElement& e, const std::set<std::string>& known) const {
    for (const auto& [key, value] : e.attributes)
      if (!known.count(key)) {
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
        fail(e, "unknown attribute '" + key + "' (known: " + list + ")");
      }
  }

  long long integer(const XmlElement& e, const std::string& key, long long lo, long long hi,
                    std::optional<long long> fallback = std::nullopt) const {
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
      fail(e, key + "=\"" + s + "\" is out of range " + std::to_string(lo) + ".." +
                  std::to_string(hi));
    return v;
  }

  std::string text(const XmlElement& e, const std::string& key, const std::string& fallback) const {
    const auto it = e.attributes.find(key);
    return it == e.attributes.end() ? fallback : it->second;
  }

  void read_algo() {
    if (root_.name != "algo") fail(root_, "expected the root element <algo> of an MSCCL algorithm");
    const std::string coll = text(root_, "coll", "");
    if (coll != "allreduce")
      fail(root_, "coll=\"" + coll +
                      "\": only all-reduce algorithms (coll=\"allreduce\") are schedules here");
    ngpus_ = static_cast<int>(integer(root_, "ngpus", 1, 4096));
    nchunks_ = static_cast<int>(integer(root_, "nchunksperloop", 1, 1 << 20));
    name_ = text(root_, "name", "msccl");
    topology_ = text(root_, "mtsim_topology", "");
    gpus_.assign(static_cast<std::size_t>(ngpus_), Gpu());
    for (const XmlElement& g : root_.children) {
      if (g.name != "gpu") fail(g, "unknown element inside <algo>; expected <gpu>");
      check_keys(g, {"id", "i_chunks", "o_chunks", "s_chunks"});
      const int id = static_cast<int>(integer(g, "id", 0, ngpus_ - 1));
      Gpu& gpu = gpus_[static_cast<std::size_t>(id)];
      if (gpu.xml != nullptr)
        fail(g, "gpu " + std::to_string(id) + " given twice (also line " +
                    std::to_string(gpu.xml->line) + ")");
      gpu.xml = &g;
      read_gpu(id, gpu);
    }
    for (int id = 0; id < ngpus_; ++id)
      if (gpus_[static_cast<std::size_t>(id)].xml == nullptr)
        fail(root_, "ngpus=\"" + std::to_string(ngpus_) + "\" but there is no <gpu id=\"" +
                        std::to_string(id) + "\">");
  }

  void read_gpu(int id, Gpu& gpu) {
    std::map<int, std::size_t> by_id;
    for (const XmlElement& t : gpu.xml->children) {
      if (t.name != "tb") fail(t, "unknown element inside <gpu>; expected <tb>");
      context_[&t] = " of gpu " + std::to_string(id);
      check_keys(t, {"id", "send", "recv", "chan"});
      Tb tb;
      tb.xml = &t;
      tb.id = static_cast<int>(integer(t, "id", 0, 1 << 20));
      tb.send = static_cast<int>(integer(t, "send", -1, ngpus_ - 1));
      tb.recv = static_cast<int>(integer(t, "recv", -1, ngpus_ - 1));
      tb.chan = static_cast<int>(integer(t, "chan", 0, 1 << 20));
      if (tb.send == id || tb.recv == id)
        fail(t, "a thread block cannot send to or receive from its own gpu");
      if (!by_id.emplace(tb.id, gpu.tbs.size()).second)
        fail(t, "thread block id given twice on this gpu");
      gpu.tbs.push_back(tb);
    }
    for (Tb& tb : gpu.tbs) {
      for (const XmlElement& s : tb.xml->children) {
        if (s.name != "step") fail(s, "unknown element inside <tb>; expected <step>");
        context_[&s] = " of gpu " + std::to_string(id) + " tb " + std::to_string(tb.id);
        tb.steps.push_back(read_step(s, static_cast<int>(tb.steps.size()), tb));
      }
    }
    // Cross-block dependencies: depid is a thread block id, deps a step of it.
    for (Tb& tb : gpu.tbs)
      for (Step& st : tb.steps) {
        const long long depid = integer(*st.xml, "depid", -1, 1 << 20, -1);
        const long long deps = integer(*st.xml, "deps", -1, 1 << 20, -1);
        if (depid < 0) continue;
        const auto it = by_id.find(static_cast<int>(depid));
        const std::string dep_text = "dangling dependency depid=\"" + std::to_string(depid) +
                                     "\" deps=\"" + std::to_string(deps) + "\": ";
        if (it == by_id.end())
          fail(*st.xml, dep_text + "gpu " + std::to_string(id) + " has no thread block " +
                            std::to_string(depid));
        const Tb& target = gpu.tbs[it->second];
        if (deps < 0 || deps >= static_cast<long long>(target.steps.size()))
          fail(*st.xml, dep_text + "thread block " + std::to_string(depid) + " has " +
                            std::to_string(target.steps.size()) + " steps");
        st.dep_tb = static_cast<int>(it->second);
        st.dep_step = static_cast<int>(deps);
      }
    for (const Tb& tb : gpu.tbs)
      for (const Step& st : tb.steps) {
        if (st.dep_tb < 0) continue;
        const Step& target = gpu.tbs[static_cast<std::size_t>(st.dep_tb)]
                                 .steps[static_cast<std::size_t>(st.dep_step)];
        if (!target.hasdep)
          fail(*target.xml,
               "gpu " + std::to_string(id) + " tb " + std::to_string(tb.id) + " step " +
                   st.xml->attributes.at("s") + " (line " + std::to_string(st.xml->line) +
                   ") waits for it, but it has hasdep=\"0\": the MSCCL runtime would never "
                   "signal it");
      }
  }

  // Offset of a buffer reference (-1 when unused); only the in-place buffers i and o exist here.
  int offset(const XmlElement& e, const char* buf_key, const char* off_key) const {
    const int off = static_cast<int>(integer(e, off_key, -1, nchunks_ - 1, -1));
    if (off < 0) return -1;
    const std::string buf = text(e, buf_key, "i");
    if (buf == "s")
      fail(e, std::string(buf_key) +
                  "=\"s\": scratch buffers are not supported (an mtsim "
                  "schedule has one buffer per node; i and o are that buffer)");
    if (buf != "i" && buf != "o")
      fail(e, std::string(buf_key) + "=\"" + buf + "\": expected i, o or s");
    return off;
  }

  Step read_step(const XmlElement& e, int index, const Tb& tb) const {
    check_keys(e, {"s", "type", "srcbuf", "srcoff", "dstbuf", "dstoff", "cnt", "depid", "deps",
                   "hasdep", "mtsim_id", "mtsim_step", "mtsim_flow"});
    Step st;
    st.xml = &e;
    if (integer(e, "s", 0, 1 << 20) != index)
      fail(e, "s=\"" + e.attributes.at("s") + "\" but it is step " + std::to_string(index) +
                  " of its thread block (steps are numbered from 0 in order)");
    const std::string type = text(e, "type", "");
    for (const TypeInfo& t : kTypes)
      if (type == t.name) st.type = &t;
    if (st.type == nullptr)
      fail(e, "unknown step type \"" + type +
                  "\" (expected s, r, rcs, rrs, rrc, rrcs, cpy, re or nop)");
    st.hasdep = integer(e, "hasdep", 0, 1, 0) == 1;
    st.mt_id = integer(e, "mtsim_id", 0, 1ll << 40, -1);
    st.mt_step = static_cast<int>(integer(e, "mtsim_step", 0, 1 << 30, -1));
    st.mt_flow = static_cast<int>(integer(e, "mtsim_flow", 0, 1 << 30, -1));
    if (type == "nop") return st;
    if (type == "re")
      fail(e,
           "local reduction (type \"re\") needs a second copy of a chunk (scratch or "
           "out-of-place buffers); an mtsim schedule has one buffer per node");
    const int src = offset(e, "srcbuf", "srcoff");
    const int dst = offset(e, "dstbuf", "dstoff");
    st.cnt = static_cast<int>(integer(e, "cnt", 0, nchunks_, 1));
    if (type == "cpy") {
      if (src != dst)
        fail(e, "copies chunk " + std::to_string(src) + " to chunk " + std::to_string(dst) +
                    ": in an mtsim schedule a chunk keeps its offset (i and o are one buffer)");
      return st;  // a copy within the one buffer moves nothing: ordering only
    }
    if (st.cnt < 1) fail(e, "cnt=\"0\": a transfer moves at least one chunk");
    st.chunk = (type == "s" || type == "rrs") ? (src >= 0 ? src : dst) : (dst >= 0 ? dst : src);
    if (st.chunk < 0) fail(e, "names no chunk (srcoff and dstoff are both -1)");
    if (src >= 0 && dst >= 0 && src != dst)
      fail(e, "moves chunk " + std::to_string(src) + " to offset " + std::to_string(dst) +
                  ": in an mtsim schedule a chunk keeps its offset");
    if (st.chunk + st.cnt > nchunks_)
      fail(e, "chunks " + std::to_string(st.chunk) + ".." + std::to_string(st.chunk + st.cnt - 1) +
                  " run past nchunksperloop=\"" + std::to_string(nchunks_) + "\"");
    if (st.type->send && tb.send < 0) fail(e, "a sending step in a thread block with send=\"-1\"");
    if (st.type->recv && tb.recv < 0)
      fail(e, "a receiving step in a thread block with recv=\"-1\"");
    return st;
  }

  // Connection (from, to, chan): the k-th send of the sender's thread block is the k-th receive
  // of the receiver's.
  void pair_connections() {
    using Key = std::tuple<int, int, int>;
    std::map<Key, std::size_t> senders, receivers;  // -> tb index on `from` / `to`
    for (int g = 0; g < ngpus_; ++g) {
      const Gpu& gpu = gpus_[static_cast<std::size_t>(g)];
      for (std::size_t t = 0; t < gpu.tbs.size(); ++t) {
        const Tb& tb = gpu.tbs[t];
        auto add = [&](std::map<Key, std::size_t>& map, const Key& key, const char* what,
                       int peer) {
          const auto [it, fresh] = map.emplace(key, t);
          if (!fresh)
            fail(*tb.xml, std::string("a second thread block ") + what + " gpu " +
                              std::to_string(peer) + " on channel " + std::to_string(tb.chan) +
                              " (thread block " + std::to_string(gpu.tbs[it->second].id) +
                              " already does)");
        };
        if (tb.send >= 0) add(senders, {g, tb.send, tb.chan}, "sending to", tb.send);
        if (tb.recv >= 0) add(receivers, {tb.recv, g, tb.chan}, "receiving from", tb.recv);
      }
    }
    for (const auto& [key, sender] : senders) {
      const auto [from, to, chan] = key;
      Tb& stb = gpus_[static_cast<std::size_t>(from)].tbs[sender];
      std::vector<Step*> sends, recvs;
      for (Step& st : stb.steps)
        if (st.type->send) sends.push_back(&st);
      const auto rit = receivers.find(key);
      Tb* rtb =
          rit == receivers.end() ? nullptr : &gpus_[static_cast<std::size_t>(to)].tbs[rit->second];
      if (rtb != nullptr)
        for (Step& st : rtb->steps)
          if (st.type->recv) recvs.push_back(&st);
      if (sends.size() != recvs.size()) {
        const std::string peer =
            "gpu " + std::to_string(to) + " on channel " + std::to_string(chan);
        if (rtb == nullptr)
          fail(*stb.xml, "sends " + std::to_string(sends.size()) + " message(s) to " + peer +
                             ", which has no thread block with recv=\"" + std::to_string(from) +
                             "\" chan=\"" + std::to_string(chan) + "\"");
        fail(*stb.xml, "sends " + std::to_string(sends.size()) + " message(s) to " + peer +
                           ", whose thread block " + std::to_string(rtb->id) + " (line " +
                           std::to_string(rtb->xml->line) + ") receives " +
                           std::to_string(recvs.size()));
      }
      for (std::size_t k = 0; k < sends.size(); ++k) {
        Step& s = *sends[k];
        Step& r = *recvs[k];
        if (s.chunk != r.chunk || s.cnt != r.cnt)
          fail(*r.xml, "receives chunks " + range(r) + " but the matching send (gpu " +
                           std::to_string(from) + " tb " + std::to_string(stb.id) + " step " +
                           s.xml->attributes.at("s") + ", line " + std::to_string(s.xml->line) +
                           ") carries chunks " + range(s));
        Message m;
        m.from = from;
        m.to = to;
        m.chunk = s.chunk;
        m.cnt = s.cnt;
        m.kind = r.type->reduce ? OpKind::kReduce : OpKind::kBroadcast;
        m.tb = static_cast<int>(sender);
        m.step = static_cast<int>(&s - stb.steps.data());
        s.send_msg = r.recv_msg = static_cast<int>(messages_.size());
        messages_.push_back(m);
      }
      if (rit != receivers.end()) receivers.erase(rit);
    }
    for (const auto& [key, receiver] : receivers) {
      const Tb& rtb = gpus_[static_cast<std::size_t>(std::get<1>(key))].tbs[receiver];
      for (const Step& st : rtb.steps)
        if (st.type->recv)
          fail(*st.xml, "receives from gpu " + std::to_string(std::get<0>(key)) + " on channel " +
                            std::to_string(std::get<2>(key)) +
                            ", but no thread block there sends to gpu " +
                            std::to_string(std::get<1>(key)) + " on that channel");
    }
  }

  static std::string range(const Step& s) {
    return std::to_string(s.chunk) + ".." + std::to_string(s.chunk + s.cnt - 1);
  }

  // A send depends on every receive that its gpu's program (thread-block order and depid/deps)
  // puts before it: in MSCCL those have completed when it starts.
  void derive_dependencies() {
    for (int g = 0; g < ngpus_; ++g) {
      Gpu& gpu = gpus_[static_cast<std::size_t>(g)];
      std::vector<int> recv_index(messages_.size(), -1);  // message -> bit
      std::vector<int> recv_msgs;
      std::vector<std::size_t> base(gpu.tbs.size() + 1, 0);  // first flat step index of a tb
      for (std::size_t t = 0; t < gpu.tbs.size(); ++t) {
        base[t + 1] = base[t] + gpu.tbs[t].steps.size();
        for (const Step& st : gpu.tbs[t].steps)
          if (st.recv_msg >= 0) {
            recv_index[static_cast<std::size_t>(st.recv_msg)] = static_cast<int>(recv_msgs.size());
            recv_msgs.push_back(st.recv_msg);
          }
      }
      const std::size_t words = (recv_msgs.size() + 63) / 64;
      const std::size_t n = base.back();
      std::vector<std::vector<std::uint64_t>> before(n);  // receives up to and including a step
      std::vector<int> state(n, 0);                       // 0 new, 1 in progress, 2 done
      std::vector<std::pair<std::size_t, std::size_t>> where(n);  // flat -> (tb, step)
      for (std::size_t t = 0; t < gpu.tbs.size(); ++t)
        for (std::size_t s = 0; s < gpu.tbs[t].steps.size(); ++s) where[base[t] + s] = {t, s};
      for (std::size_t start = 0; start < n; ++start) {
        // Iterative DFS over predecessors (previous step, cross-block dependency).
        std::vector<std::size_t> stack = {start};
        while (!stack.empty()) {
          const std::size_t v = stack.back();
          if (state[v] == 2) {
            stack.pop_back();
            continue;
          }
          const auto [t, s] = where[v];
          const Step& st = gpu.tbs[t].steps[s];
          std::vector<std::size_t> preds;
          if (s > 0) preds.push_back(v - 1);
          if (st.dep_tb >= 0)
            preds.push_back(base[static_cast<std::size_t>(st.dep_tb)] +
                            static_cast<std::size_t>(st.dep_step));
          if (state[v] == 0) {
            state[v] = 1;
            for (const std::size_t p : preds) {
              if (state[p] == 1)
                fail(*st.xml,
                     "thread blocks wait for each other in a cycle (through line " +
                         std::to_string(gpu.tbs[where[p].first].steps[where[p].second].xml->line) +
                         ")");
              if (state[p] == 0) stack.push_back(p);
            }
            continue;
          }
          stack.pop_back();
          std::vector<std::uint64_t> bits(words, 0);
          for (const std::size_t p : preds)
            for (std::size_t w = 0; w < words; ++w) bits[w] |= before[p][w];
          if (st.recv_msg >= 0) {
            const int b = recv_index[static_cast<std::size_t>(st.recv_msg)];
            bits[static_cast<std::size_t>(b) / 64] |= std::uint64_t{1} << (b % 64);
          }
          before[v] = std::move(bits);
          state[v] = 2;
        }
      }
      for (std::size_t v = 0; v < n; ++v) {
        const Step& st = gpu.tbs[where[v].first].steps[where[v].second];
        if (st.send_msg < 0) continue;
        auto& deps = messages_[static_cast<std::size_t>(st.send_msg)].deps;
        for (std::size_t b = 0; b < recv_msgs.size(); ++b)
          if ((before[v][b / 64] >> (b % 64)) & 1) deps.push_back(recv_msgs[b]);
      }
    }
  }

  Schedule build() {
    const std::size_t n = messages_.size();
    std::vector<std::vector<int>> deps(n);
    for (std::size_t m = 0; m < n; ++m) deps[m] = messages_[m].deps;
    // Longest-path levels in topological order; a cycle (a deadlocked program) is left for
    // verify() to name.
    const TopologicalOrder topological = topological_order(
        n, [&deps](int m) -> const std::vector<int>& { return deps[static_cast<std::size_t>(m)]; });
    // A message of a cycle gets its level from its dependencies that can issue.
    std::vector<char> ordered(n, 0);
    for (const int m : topological.order) ordered[static_cast<std::size_t>(m)] = 1;
    const auto level_from_deps = [&](std::size_t m) {
      for (const int d : deps[m]) {
        if (ordered[static_cast<std::size_t>(d)])
          messages_[m].level =
              std::max(messages_[m].level, messages_[static_cast<std::size_t>(d)].level + 1);
      }
    };
    for (const int m : topological.order) level_from_deps(static_cast<std::size_t>(m));
    for (std::size_t m = 0; m < n; ++m)
      if (!ordered[m]) level_from_deps(m);
    if (topological.acyclic()) {
      // Drop dependencies the data flow already implies (budgeted search: only sure ones go).
      std::vector<int> stamp(n, 0);
      int generation = 0;
      for (std::size_t m = 0; m < n; ++m) {
        if (deps[m].size() < 2) continue;
        mark_ancestors(deps, deps[m], stamp, ++generation, kSearchBudget);
        std::vector<int> kept;
        for (const int d : deps[m])
          if (stamp[static_cast<std::size_t>(d)] != generation) kept.push_back(d);
        messages_[m].deps = kept;
      }
    }
    // Message order: the exporter's mtsim_id when every send has one, else level, gpu, block, step.
    std::vector<long long> ids(n, -1);
    bool all_ids = n > 0;
    for (std::size_t m = 0; m < n; ++m) {
      const Message& msg = messages_[m];
      ids[m] = step_of(msg).mt_id;
      if (ids[m] < 0) all_ids = false;
    }
    std::vector<std::size_t> order(n);
    for (std::size_t m = 0; m < n; ++m) order[m] = m;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      const Message& x = messages_[a];
      const Message& y = messages_[b];
      if (all_ids) return ids[a] < ids[b];
      return std::tie(x.level, x.from, x.tb, x.step) < std::tie(y.level, y.from, y.tb, y.step);
    });
    std::vector<int> first_op(n, 0);
    int next = 0;
    for (const std::size_t m : order) {
      first_op[m] = next;
      next += messages_[m].cnt;
    }
    Schedule s;
    s.algorithm = name_;
    s.topology = topology_;
    s.nodes = ngpus_;
    s.num_chunks = nchunks_;
    s.num_flows = 1;
    for (const std::size_t m : order) {
      const Message& msg = messages_[m];
      const Step& st = step_of(msg);
      for (int k = 0; k < msg.cnt; ++k) {
        Op op;
        op.node = msg.from;
        op.peer = msg.to;
        op.chunk = msg.chunk + k;
        op.kind = msg.kind;
        op.step = st.mt_step >= 0 ? st.mt_step : msg.level;
        op.flow = st.mt_flow >= 0 ? st.mt_flow
                                  : gpus_[static_cast<std::size_t>(msg.from)]
                                        .tbs[static_cast<std::size_t>(msg.tb)]
                                        .chan;
        for (const int d : msg.deps)
          for (int j = 0; j < messages_[static_cast<std::size_t>(d)].cnt; ++j)
            op.deps.push_back(first_op[static_cast<std::size_t>(d)] + j);
        std::sort(op.deps.begin(), op.deps.end());
        s.add(op);
      }
    }
    // Every rank must receive every chunk (at least its final value).
    if (ngpus_ > 1) {
      std::vector<std::vector<char>> got(static_cast<std::size_t>(ngpus_),
                                         std::vector<char>(static_cast<std::size_t>(nchunks_), 0));
      for (const Op& op : s.ops)
        got[static_cast<std::size_t>(op.peer)][static_cast<std::size_t>(op.chunk)] = 1;
      for (int g = 0; g < ngpus_; ++g)
        for (int c = 0; c < nchunks_; ++c)
          if (!got[static_cast<std::size_t>(g)][static_cast<std::size_t>(c)])
            fail(*gpus_[static_cast<std::size_t>(g)].xml,
                 "rank " + std::to_string(g) + " never receives chunk " + std::to_string(c) +
                     ": in an all-reduce every rank receives every chunk (at least its final "
                     "value)");
    }
    return s;
  }

  const Step& step_of(const Message& m) const {
    return gpus_[static_cast<std::size_t>(m.from)]
        .tbs[static_cast<std::size_t>(m.tb)]
        .steps[static_cast<std::size_t>(m.step)];
  }

  const XmlElement& root_;
  std::string file_;
  std::map<const XmlElement*, std::string> context_;
  int ngpus_ = 0;
  int nchunks_ = 0;
  std::string name_, topology_;
  std::vector<Gpu> gpus_;
  std::vector<Message> messages_;
};

// ---------------------------------------------------------------------------------------------
// Export.

std::string xml_escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

struct StepOut {
  std::string type;
  int chunk = -1;
  int dep_tb = -1, dep_step = -1;
  bool hasdep = false;
  int op = -1;  // message sent (send steps), for the mtsim_* attributes
};

struct TbOut {
  int send = -1, recv = -1, chan = 0;
  std::vector<StepOut> steps;
};

}  // namespace

Schedule schedule_from_msccl(const std::string& text, const std::string& file) {
  XmlElement root;
  try {
    root = parse_xml(text);
  } catch (const XmlError& e) {
    throw ScheduleError(file + ":" + e.what());
  }
  return Importer(root, file).run();
}

Schedule load_msccl_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScheduleError("cannot read MSCCL file \"" + path + "\": " + std::strerror(errno));
  std::ostringstream os;
  os << in.rdbuf();
  return schedule_from_msccl(os.str(), path);
}

std::vector<std::string> msccl_limit_notes(const MscclExportStats& stats) {
  std::vector<std::string> notes;
  auto check = [&](int value, int limit, const std::string& what) {
    if (value > limit)
      notes.push_back(std::to_string(value) + " " + what + " (the MSCCL runtime allows " +
                      std::to_string(limit) + ")");
  };
  check(stats.channels, 32, "channels");
  check(stats.max_tbs_per_gpu, 216, "thread blocks on one GPU");
  check(stats.max_tbs_per_channel, 32, "thread blocks of one GPU on one channel");
  check(stats.max_steps_per_tb, 256, "steps in one thread block");
  return notes;
}

std::string schedule_to_msccl(const Schedule& schedule, MscclExportStats* stats) {
  if (!schedule.chunk_offsets.empty())
    throw ScheduleError(
        "schedule has unequal chunks (chunk_offsets): MSCCL XML has equal chunks only");
  const std::size_t n = schedule.ops.size();
  std::vector<std::vector<int>> deps(n);
  int lost = 0;
  for (const Op& op : schedule.ops) {
    if (op.id < 0 || static_cast<std::size_t>(op.id) >= n || op.node < 0 ||
        op.node >= schedule.nodes || op.peer < 0 || op.peer >= schedule.nodes || op.node == op.peer)
      throw ScheduleError("message " + std::to_string(op.id) +
                          " is malformed (mtsim verify names why)");
    for (const int d : op.deps) {
      if (d < 0 || static_cast<std::size_t>(d) >= n ||
          schedule.ops[static_cast<std::size_t>(d)].peer != op.node)
        throw ScheduleError("message " + std::to_string(op.id) + " depends on message " +
                            std::to_string(d) + ", which does not arrive at node " +
                            std::to_string(op.node));
    }
    deps[static_cast<std::size_t>(op.id)] = op.deps;
    if (op.port >= 0 || !op.path.empty()) ++lost;
  }

  // Send chains per (node, peer): a send may follow the chain's last one when that one's deps
  // all arrive before this one may issue, so thread-block order adds no wait.
  std::vector<int> stamp(n, 0);
  int generation = 0;
  auto may_follow = [&](int last, int op) {
    const auto& need = deps[static_cast<std::size_t>(last)];
    const auto& have = deps[static_cast<std::size_t>(op)];
    if (std::all_of(need.begin(), need.end(),
                    [&](int d) { return std::find(have.begin(), have.end(), d) != have.end(); }))
      return true;
    ++generation;
    if (!mark_ancestors(deps, {op}, stamp, generation, kSearchBudget)) return false;
    return std::all_of(need.begin(), need.end(),
                       [&](int d) { return stamp[static_cast<std::size_t>(d)] == generation; });
  };
  const int nodes = schedule.nodes;
  // chains[node][peer] = list of chains (op ids)
  std::vector<std::map<int, std::vector<std::vector<int>>>> chains(static_cast<std::size_t>(nodes));
  for (const Op& op : schedule.ops) {
    auto& list = chains[static_cast<std::size_t>(op.node)][op.peer];
    bool placed = false;
    for (auto& chain : list)
      if (may_follow(chain.back(), op.id)) {
        chain.push_back(op.id);
        placed = true;
        break;
      }
    if (!placed) list.push_back({op.id});
  }
  // Thread blocks: per node, send blocks (peer, chan) then receive blocks (peer, chan).
  std::vector<std::vector<TbOut>> tbs(static_cast<std::size_t>(nodes));
  std::vector<std::pair<int, int>> recv_at(n);  // message -> (tb, step) at its receiver
  int nchannels = 1;
  for (int u = 0; u < nodes; ++u)
    for (const auto& [peer, list] : chains[static_cast<std::size_t>(u)]) {
      nchannels = std::max(nchannels, static_cast<int>(list.size()));
      for (std::size_t c = 0; c < list.size(); ++c) {
        TbOut tb;
        tb.send = peer;
        tb.chan = static_cast<int>(c);
        tbs[static_cast<std::size_t>(u)].push_back(tb);
      }
    }
  for (int v = 0; v < nodes; ++v)
    for (int u = 0; u < nodes; ++u) {
      const auto it = chains[static_cast<std::size_t>(u)].find(v);
      if (it == chains[static_cast<std::size_t>(u)].end()) continue;
      for (std::size_t c = 0; c < it->second.size(); ++c) {
        TbOut tb;
        tb.recv = u;
        tb.chan = static_cast<int>(c);
        const int tb_id = static_cast<int>(tbs[static_cast<std::size_t>(v)].size());
        for (const int id : it->second[c]) {
          const Op& op = schedule.ops[static_cast<std::size_t>(id)];
          StepOut st;
          st.type = op.kind == OpKind::kReduce ? "rrc" : "r";
          st.chunk = op.chunk;
          recv_at[static_cast<std::size_t>(id)] = {tb_id, static_cast<int>(tb.steps.size())};
          tb.steps.push_back(st);
        }
        tbs[static_cast<std::size_t>(v)].push_back(tb);
      }
    }
  for (int u = 0; u < nodes; ++u) {
    std::size_t t = 0;
    for (const auto& [peer, list] : chains[static_cast<std::size_t>(u)])
      for (const auto& chain : list) {
        TbOut& tb = tbs[static_cast<std::size_t>(u)][t++];
        for (const int id : chain) {
          const Op& op = schedule.ops[static_cast<std::size_t>(id)];
          for (std::size_t k = 0; k < op.deps.size(); ++k) {
            const auto [dt, ds] = recv_at[static_cast<std::size_t>(op.deps[k])];
            tbs[static_cast<std::size_t>(u)][static_cast<std::size_t>(dt)]
                .steps[static_cast<std::size_t>(ds)]
                .hasdep = true;
            StepOut st;
            st.type = k + 1 < op.deps.size() ? "nop" : "s";
            st.dep_tb = dt;
            st.dep_step = ds;
            tb.steps.push_back(st);
          }
          if (op.deps.empty()) tb.steps.push_back(StepOut{"s", -1, -1, -1, false, -1});
          tb.steps.back().chunk = op.chunk;
          tb.steps.back().op = id;
        }
      }
  }
  if (stats != nullptr) {
    *stats = MscclExportStats();
    stats->dropped = lost;
    stats->channels = nchannels;
    for (const auto& list : tbs) {
      stats->max_tbs_per_gpu = std::max(stats->max_tbs_per_gpu, static_cast<int>(list.size()));
      std::map<int, int> per_channel;
      for (const TbOut& tb : list) {
        stats->max_tbs_per_channel = std::max(stats->max_tbs_per_channel, ++per_channel[tb.chan]);
        stats->max_steps_per_tb =
            std::max(stats->max_steps_per_tb, static_cast<int>(tb.steps.size()));
      }
    }
  }
  std::ostringstream x;
  x << "<algo name=\"" << xml_escape(schedule.algorithm.empty() ? "mtsim" : schedule.algorithm)
    << "\" proto=\"Simple\" nchannels=\"" << nchannels << "\" nchunksperloop=\""
    << schedule.num_chunks << "\" ngpus=\"" << nodes
    << "\" coll=\"allreduce\" inplace=\"1\" outofplace=\"0\" minBytes=\"0\" "
    << "maxBytes=\"9223372036854775807\"";  // the MSCCL executor requires all three
  if (!schedule.topology.empty())
    x << " mtsim_topology=\"" << xml_escape(schedule.topology) << "\"";
  x << ">\n";
  for (int u = 0; u < nodes; ++u) {
    x << "  <gpu id=\"" << u << "\" i_chunks=\"" << schedule.num_chunks << "\" o_chunks=\""
      << schedule.num_chunks << "\" s_chunks=\"0\">\n";
    const auto& list = tbs[static_cast<std::size_t>(u)];
    for (std::size_t t = 0; t < list.size(); ++t) {
      const TbOut& tb = list[t];
      x << "    <tb id=\"" << t << "\" send=\"" << tb.send << "\" recv=\"" << tb.recv
        << "\" chan=\"" << tb.chan << "\">\n";
      for (std::size_t s = 0; s < tb.steps.size(); ++s) {
        const StepOut& st = tb.steps[s];
        const bool data = st.type != "nop";
        const bool reads = st.type == "s" || st.type == "rrc";
        x << "      <step s=\"" << s << "\" type=\"" << st.type << "\" srcbuf=\"i\" srcoff=\""
          << (reads ? st.chunk : -1) << "\" dstbuf=\"i\" dstoff=\"" << (data ? st.chunk : -1)
          << "\" cnt=\"" << (data ? 1 : 0) << "\" depid=\"" << st.dep_tb << "\" deps=\""
          << st.dep_step << "\" hasdep=\"" << (st.hasdep ? 1 : 0) << "\"";
        if (st.op >= 0) {
          const Op& op = schedule.ops[static_cast<std::size_t>(st.op)];
          x << " mtsim_id=\"" << op.id << "\" mtsim_step=\"" << op.step << "\" mtsim_flow=\""
            << op.flow << "\"";
        }
        x << "/>\n";
      }
      x << "    </tb>\n";
    }
    x << "  </gpu>\n";
  }
  x << "</algo>\n";
  return x.str();
}

}  // namespace mt
