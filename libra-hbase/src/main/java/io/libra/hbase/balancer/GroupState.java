package io.libra.hbase.balancer;

import io.libra.core.model.ClusterSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.ServerName;

/**
 * What the balancer remembers between runs for one set of servers. With RS groups HBase's
 * {@code RSGroupBasedLoadBalancer} calls the balancer once per group, each time with that
 * group's servers only: one shared memory would compare one group's window with another's, and
 * the fluctuation guard would suspend (or the history check refuse) every run.
 */
final class GroupState {
    /** The last window of this group in which nothing moved, for the fluctuation guard. */
    ClusterSnapshot previousWindow;
    /** Its last windows and the plan of the moves last returned, for the learnt estimate and the forecast check. */
    final PlanMemory memory = new PlanMemory();
    /** The group's server names, which name its saved history. */
    final Set<String> servers;
    /** Whether the saved history was looked for (once, when the group is first seen). */
    boolean restored;

    GroupState(Set<String> servers) {
        this.servers = servers;
    }

    /** Per-group state keyed by the group's server names; the least recently used go first. */
    static final class Groups {
        private static final int MAX = 256;
        private final Map<Set<String>, GroupState> byServers = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Set<String>, GroupState> eldest) {
                return size() > MAX;
            }
        };

        synchronized GroupState of(Set<ServerName> servers) {
            Set<String> key = servers.stream().map(ServerName::getServerName).collect(Collectors.toCollection(TreeSet::new));
            return byServers.computeIfAbsent(key, GroupState::new);
        }

        /**
         * Forgets the groups with a server no longer live (a restarted server has a new start
         * code, so such a group never comes back) and returns their server names.
         */
        synchronized List<Set<String>> retainLive(Set<ServerName> live) {
            Set<String> names = live.stream().map(ServerName::getServerName).collect(Collectors.toSet());
            List<Set<String>> gone = new ArrayList<>();
            byServers.keySet().removeIf(group -> !names.containsAll(group) && gone.add(group));
            return gone;
        }

        synchronized int size() {
            return byServers.size();
        }
    }
}
