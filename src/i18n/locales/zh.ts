import type { Catalogue } from './en';

/**
 * Chinese catalogue (lazy chunk). Terms from the Chinese postmortem (`src/i18n/glossary.ts`):
 * 超时、取消、重试、熔断、降级、容错、流量; where it is silent, the glossary's `lab` term
 * (进度、幂等键、重连、随机抖动).
 */
export const messages: Catalogue = {
  'shell.skip': '跳到实验室',
  'shell.brand': 'MCP 可靠性实验室',
  'shell.start': '从这里开始',
  'shell.startTitle': '从这里开始：实验室的用途和入门路径',
  'shell.skipTimeline': '跳到时间线的第一个事件',
  'nav.label': '实验室',
  'nav.soon': '即将推出',
  'nav.soonTitle': '{blurb} — 即将推出',
  'lab.races.name': '竞态',
  'lab.races.blurb': '取消、超时与进度',
  'lab.ledger.name': '账本',
  'lab.ledger.blurb': '真实 SQLite 账本中的幂等键',
  'lab.flow.name': '流',
  'lab.flow.blurb': 'SSE 缓冲、代理、重连与随机抖动',
  'lab.resilience.name': '容错',
  'lab.resilience.blurb': '任务、重试、预算与熔断',
  'lab.traffic.name': '流量',
  'lab.traffic.blurb': '导入你自己的 MCP 记录，检查并推演假设情形',
  'theme.label': '主题',
  'theme.auto': '自动',
  'theme.light': '浅色',
  'theme.dark': '深色',
  'lang.label': '语言',
  'update.available': '有新版本可用 — ',
  'update.reload': '重新加载',
  'update.later': '稍后',
};
