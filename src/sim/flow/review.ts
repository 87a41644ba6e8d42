import type { LabReview } from '../lab';
import type { Json } from '../types';

const isObj = (v: unknown): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** What the review report reads off a flow run: the SSE queue's capacity and policy, the keep-alive, the proxy's idle timeout and headers. */
export const flowReview: LabReview = {
  infer(scenario, note) {
    const config = scenario.config as Record<string, Json>;
    if (typeof config.capacityEvents === 'number') note('sse.queueCapacityEvents', config.capacityEvents);
    if (typeof config.policy === 'string') note('sse.queuePolicy', config.policy);
    if (config.keepAliveIntervalMs !== undefined) note('sse.keepAliveIntervalMs', config.keepAliveIntervalMs);
    if (isObj(config.proxy) && typeof config.proxy.readTimeoutMs === 'number') note('sse.proxyIdleTimeoutMs', config.proxy.readTimeoutMs);
    if (isObj(config.proxy) && config.proxy.honoursAccelBuffering === true) note('sse.proxyHeaders', !(isObj(config.bugs) && config.bugs.omitAccelBufferingHeader === true));
  },
};
