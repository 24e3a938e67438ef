#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "model/collective/msccl_program.h"
#include "model/collective/msccl_xml.h"
#include "model/collective/schedule_graph.h"
#include "model/collective/schedule_io.h"
#include "model/core/text_file.h"

namespace mt {
namespace {

using Step = MscclStep;
using Tb = MscclTb;
using Gpu = MscclGpu;

// One message of the program: a send step paired with the receive step it feeds.
struct Message {
  int from = 0, to = 0, chunk = 0, cnt = 1;  // to == from: a local step
  int dst = 0;                               // first slot written at `to`
  Buffer src_buf = Buffer::kData, dst_buf = Buffer::kData;
  OpKind kind = OpKind::kReduce;
  int tb = 0, step = 0;      // sending step: index of the tb on `from`, step index
  std::vector<int> deps;     // message indices
  std::vector<int> readers;  // messages of `to` that read a slot this one writes, before it
  int level = 0;
};

// Program -> messages (send/receive pairs per connection) -> dependencies -> Schedule.
class Importer {
 public:
  Importer(const XmlElement& root, std::string file) : program_(root, std::move(file)) {}

  Schedule run() {
    pair_connections();
    add_local_steps();
    derive_dependencies();
    return build();
  }

 private:
  // of the receiver's.
  void pair_connections() {
    using Key = std::tuple<int, int, int>;
    std::map<Key, std::size_t> senders, receivers;  // -> tb index on `from` / `to`
    for (int g = 0; g < program_.ngpus; ++g) {
      const Gpu& gpu = program_.gpus[static_cast<std::size_t>(g)];
      for (std::size_t t = 0; t < gpu.tbs.size(); ++t) {
        const Tb& tb = gpu.tbs[t];
        auto add = [&](std::map<Key, std::size_t>& map, const Key& key, const char* what,
                       int peer) {
          const auto [it, fresh] = map.emplace(key, t);
          if (!fresh)
            program_.fail(*tb.xml, std::string("a second thread block ") + what + " gpu " +
                                       std::to_string(peer) + " on channel " +
                                       std::to_string(tb.chan) + " (thread block " +
                                       std::to_string(gpu.tbs[it->second].id) + " already does)");
        };
        if (tb.send >= 0) add(senders, {g, tb.send, tb.chan}, "sending to", tb.send);
        if (tb.recv >= 0) add(receivers, {tb.recv, g, tb.chan}, "receiving from", tb.recv);
      }
    }
    for (const auto& [key, sender] : senders) {
      const auto [from, to, chan] = key;
      Tb& stb = program_.gpus[static_cast<std::size_t>(from)].tbs[sender];
      std::vector<Step*> sends, recvs;
      for (Step& st : stb.steps)
        if (st.type->send) sends.push_back(&st);
      const auto rit = receivers.find(key);
      Tb* rtb = rit == receivers.end()
                    ? nullptr
                    : &program_.gpus[static_cast<std::size_t>(to)].tbs[rit->second];
      if (rtb != nullptr)
        for (Step& st : rtb->steps)
          if (st.type->recv) recvs.push_back(&st);
      if (sends.size() != recvs.size()) {
        const std::string peer =
            "gpu " + std::to_string(to) + " on channel " + std::to_string(chan);
        if (rtb == nullptr)
          program_.fail(*stb.xml, "sends " + std::to_string(sends.size()) + " message(s) to " +
                                      peer + ", which has no thread block with recv=\"" +
                                      std::to_string(from) + "\" chan=\"" + std::to_string(chan) +
                                      "\"");
        program_.fail(*stb.xml, "sends " + std::to_string(sends.size()) + " message(s) to " + peer +
                                    ", whose thread block " + std::to_string(rtb->id) + " (line " +
                                    std::to_string(rtb->xml->line) + ") receives " +
                                    std::to_string(recvs.size()));
      }
      for (std::size_t k = 0; k < sends.size(); ++k) {
        Step& s = *sends[k];
        Step& r = *recvs[k];
        if (s.cnt != r.cnt)
          program_.fail(*r.xml, "receives " + std::to_string(r.cnt) +
                                    " chunk(s) but the matching send (gpu " + std::to_string(from) +
                                    " tb " + std::to_string(stb.id) + " step " +
                                    s.xml->attributes.at("s") + ", line " +
                                    std::to_string(s.xml->line) + ") carries " +
                                    std::to_string(s.cnt) + " (" + range(s) + ")");
        s.send_msg = r.recv_msg = add_message(from, to, s, r, static_cast<int>(sender),
                                              static_cast<int>(&s - stb.steps.data()));
      }
      if (rit != receivers.end()) receivers.erase(rit);
    }
    for (const auto& [key, receiver] : receivers) {
      const Tb& rtb = program_.gpus[static_cast<std::size_t>(std::get<1>(key))].tbs[receiver];
      for (const Step& st : rtb.steps)
        if (st.type->recv)
          program_.fail(*st.xml, "receives from gpu " + std::to_string(std::get<0>(key)) +
                                     " on channel " + std::to_string(std::get<2>(key)) +
                                     ", but no thread block there sends to gpu " +
                                     std::to_string(std::get<1>(key)) + " on that channel");
    }
  }

  // Appends the message that step `read` (at gpu `from`, thread block `tb`, step index `step`)
  // sends and step `write` (at gpu `to`) writes, reducing when the writer's type does; a local
  // step is both. Returns its index.
  int add_message(int from, int to, const Step& read, const Step& write, int tb, int step) {
    Message m;
    m.from = from;
    m.to = to;
    m.chunk = read.read;
    m.src_buf = read.read_buf;
    m.dst = write.write;
    m.dst_buf = write.write_buf;
    m.cnt = read.cnt;
    m.kind = write.type->reduce ? OpKind::kReduce : OpKind::kBroadcast;
    m.tb = tb;
    m.step = step;
    messages_.push_back(m);
    return static_cast<int>(messages_.size()) - 1;
  }

  static std::string range(const Step& s) {
    return slot_text(s.read_buf, s.read) + ".." + std::to_string(s.read + s.cnt - 1);
  }

  // Every cpy and re between two slots: a message from the gpu to itself (a local step).
  void add_local_steps() {
    for (int g = 0; g < program_.ngpus; ++g) {
      Gpu& gpu = program_.gpus[static_cast<std::size_t>(g)];
      for (std::size_t t = 0; t < gpu.tbs.size(); ++t)
        for (Step& st : gpu.tbs[t].steps) {
          if (!st.local()) continue;
          st.send_msg = st.recv_msg = add_message(g, g, st, st, static_cast<int>(t),
                                                  static_cast<int>(&st - gpu.tbs[t].steps.data()));
        }
    }
  }

  // A send depends on every receive that its gpu's program (thread-block order and depid/deps)
  // puts before it: in MSCCL those have completed when it starts. A step that writes a slot
  // notes the gpu's sends and local steps before it that read that slot (Message::readers).
  void derive_dependencies() {
    for (int g = 0; g < program_.ngpus; ++g) {
      Gpu& gpu = program_.gpus[static_cast<std::size_t>(g)];
      std::vector<std::size_t> base(gpu.tbs.size() + 1, 0);    // first flat step index of a tb
      std::vector<std::pair<std::size_t, std::size_t>> where;  // flat -> (tb, step)
      std::vector<std::size_t> events;  // steps that receive, send or run a local step: a bit
      for (std::size_t t = 0; t < gpu.tbs.size(); ++t) {
        base[t + 1] = base[t] + gpu.tbs[t].steps.size();
        for (std::size_t s = 0; s < gpu.tbs[t].steps.size(); ++s) {
          const Step& st = gpu.tbs[t].steps[s];
          if (st.recv_msg >= 0 || st.send_msg >= 0) events.push_back(where.size());
          where.emplace_back(t, s);
        }
      }
      const std::size_t n = base.back();
      std::vector<int> bit_of(n, -1);
      for (std::size_t b = 0; b < events.size(); ++b) bit_of[events[b]] = static_cast<int>(b);
      const std::size_t words = (events.size() + 63) / 64;
      std::vector<std::vector<std::uint64_t>> before(n);  // events up to and including a step
      std::vector<int> state(n, 0);                       // 0 new, 1 in progress, 2 done
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
                program_.fail(
                    *st.xml,
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
          if (bit_of[v] >= 0) {
            const auto b = static_cast<std::size_t>(bit_of[v]);
            bits[b / 64] |= std::uint64_t{1} << (b % 64);
          }
          before[v] = std::move(bits);
          state[v] = 2;
        }
      }
      for (std::size_t v = 0; v < n; ++v) {
        const Step& st = gpu.tbs[where[v].first].steps[where[v].second];
        if (st.send_msg < 0 && st.recv_msg < 0) continue;
        Message* sent =
            st.send_msg >= 0 ? &messages_[static_cast<std::size_t>(st.send_msg)] : nullptr;
        Message* written =
            st.recv_msg >= 0 ? &messages_[static_cast<std::size_t>(st.recv_msg)] : nullptr;
        for (std::size_t b = 0; b < events.size(); ++b) {
          if (!((before[v][b / 64] >> (b % 64)) & 1) || events[b] == v) continue;
          const Step& prior = gpu.tbs[where[events[b]].first].steps[where[events[b]].second];
          // A local step is its own receive: it waits for the ones before it, not for itself.
          if (sent != nullptr && prior.recv_msg >= 0) sent->deps.push_back(prior.recv_msg);
          if (written != nullptr && prior.send_msg >= 0 &&
              reads_written(messages_[static_cast<std::size_t>(prior.send_msg)], *written))
            written->readers.push_back(prior.send_msg);
        }
        // The step's own receive comes before its send (rrs, rcs, rrcs): a dependency too.
        if (sent != nullptr && written != nullptr && sent != written)
          sent->deps.push_back(st.recv_msg);
      }
    }
  }

  // Message `reader` (a send or local step) reads a slot that `writer` writes at its gpu.
  static bool reads_written(const Message& reader, const Message& writer) {
    return reader.src_buf == writer.dst_buf && reader.chunk < writer.dst + writer.cnt &&
           writer.dst < reader.chunk + reader.cnt;
  }

  // Receive staging where the program orders a write after a read of the same slot that the
  // data flow does not (an exchange through scratch: the `re` after the gpu's own send of the
  // chunk): the write is applied once that read's message has been issued (Op::apply_after).
  // One read is waited for; where several are unordered, verify() names the race left.
  void stage_writes_after_reads(Schedule& s, const std::vector<int>& first_op) {
    std::vector<std::pair<int, int>> wanted;  // (op, reader op)
    for (std::size_t m = 0; m < messages_.size(); ++m) {
      const Message& w = messages_[m];
      for (int k = 0; k < w.cnt; ++k) {
        const int slot = w.dst + k;
        int reader = -1;
        for (const int r : w.readers) {
          const Message& rm = messages_[static_cast<std::size_t>(r)];
          if (rm.chunk <= slot && slot < rm.chunk + rm.cnt)
            reader = std::max(reader, first_op[static_cast<std::size_t>(r)] + slot - rm.chunk);
        }
        if (reader >= 0) wanted.emplace_back(first_op[m] + k, reader);
      }
    }
    if (wanted.empty()) return;
    const ScheduleGraph graph(s);
    if (!graph.acyclic()) return;  // verify() names the cycle
    HappensBefore hb = graph.happens_before();
    for (const auto& [op, reader] : wanted) {
      // Already ordered by the data flow (the read's message arrives before the write's issue),
      // or the other way round (staging would deadlock: left for the race check to name).
      if (hb.happens_before(reader, op) || hb.happens_before(op, reader)) continue;
      s.ops[static_cast<std::size_t>(op)].apply_after = reader;
    }
  }

  Schedule build() {
    const std::size_t n = messages_.size();
    std::vector<std::vector<int>> deps(n);
    const DepsOf deps_of = [&deps](int m) -> const std::vector<int>& {
      return deps[static_cast<std::size_t>(m)];
    };
    for (std::size_t m = 0; m < n; ++m) deps[m] = messages_[m].deps;
    // Longest-path levels in topological order; a cycle (a deadlocked program) is left for
    // verify() to name.
    const TopologicalOrder topological = topological_order(n, deps_of);
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
        mark_ancestors(deps_of, deps[m], stamp, ++generation, kMscclSearchBudget);
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
    s.algorithm = program_.name;
    s.topology = program_.topology;
    s.nodes = program_.ngpus;
    s.num_chunks = program_.nchunks;
    s.scratch_chunks = program_.scratch_chunks;
    s.num_flows = 1;
    for (const std::size_t m : order) {
      const Message& msg = messages_[m];
      const Step& st = step_of(msg);
      for (int k = 0; k < msg.cnt; ++k) {
        Op op;
        op.node = msg.from;
        op.peer = msg.to;
        op.chunk = msg.chunk + k;
        op.src_buf = msg.src_buf;
        op.dst_buf = msg.dst_buf;
        if (msg.dst != msg.chunk) op.dst_chunk = msg.dst + k;
        op.kind = msg.kind;
        op.step = st.mt_step >= 0 ? st.mt_step : msg.level;
        op.flow = st.mt_flow >= 0 ? st.mt_flow
                                  : program_.gpus[static_cast<std::size_t>(msg.from)]
                                        .tbs[static_cast<std::size_t>(msg.tb)]
                                        .chan;
        for (const int d : msg.deps)
          for (int j = 0; j < messages_[static_cast<std::size_t>(d)].cnt; ++j)
            op.deps.push_back(first_op[static_cast<std::size_t>(d)] + j);
        std::sort(op.deps.begin(), op.deps.end());
        s.add(op);
        s.op_sources.push_back(program_.where(*st.xml));
      }
    }
    stage_writes_after_reads(s, first_op);
    // Every rank must write every chunk of its data buffer (at least its final value).
    if (program_.ngpus > 1) {
      std::vector<std::vector<char>> got(
          static_cast<std::size_t>(program_.ngpus),
          std::vector<char>(static_cast<std::size_t>(program_.nchunks), 0));
      for (const Op& op : s.ops)
        if (op.dst_buf == Buffer::kData)
          got[static_cast<std::size_t>(op.peer)][static_cast<std::size_t>(op.dst_slot())] = 1;
      for (int g = 0; g < program_.ngpus; ++g)
        for (int c = 0; c < program_.nchunks; ++c)
          if (!got[static_cast<std::size_t>(g)][static_cast<std::size_t>(c)])
            program_.fail(
                *program_.gpus[static_cast<std::size_t>(g)].xml,
                "rank " + std::to_string(g) + " never receives chunk " + std::to_string(c) +
                    ": in an all-reduce every rank receives every chunk (at least its final "
                    "value)");
    }
    return s;
  }

  const Step& step_of(const Message& m) const {
    return program_.gpus[static_cast<std::size_t>(m.from)]
        .tbs[static_cast<std::size_t>(m.tb)]
        .steps[static_cast<std::size_t>(m.step)];
  }

  MscclProgram program_;
  std::vector<Message> messages_;
};

}  // namespace

Schedule schedule_from_msccl(const std::string& text, const std::string& file) {
  XmlElement root;
  try {
    root = parse_xml(text);
  } catch (const XmlError& e) {
    ErrorLocation at = e.location();  // the line; the file is known here
    at.file = file;
    throw ScheduleError(file + ":" + e.what(), at);
  }
  return Importer(root, file).run();
}

Schedule load_msccl_file(const std::string& path) {
  // As a JSON schedule file: a regular file of at most kMaxScheduleFileBytes (a device or a
  // multi-GiB file was read whole).
  std::string text;
  try {
    text = read_text_file(path, "MSCCL file", kMaxScheduleFileBytes);
  } catch (const FileError& e) {
    ErrorLocation at;
    at.file = path;
    throw ScheduleError(e.what(), at);
  }
  return schedule_from_msccl(text, path);
}

}  // namespace mt
