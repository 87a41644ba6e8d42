/**
 * Every word of the Start page (`#/start`, and `#/` for a first visit) in one place, so the
 * languages issue (25) translates them once. Protocol tokens and commands stay as they are.
 */
export const START_TEXT = {
  title: 'MCP Reliability Lab',
  lead: 'Learn why MCP tool calls fail in production — cancellations that race completions, timeouts that never fire, mutations that run twice, streams that drop — by stepping a virtual clock through each failure and dragging its events into new orders.',
  who: 'For people who build MCP clients and servers and want to see, message by message, what the specification (revisions 2026-07-28 and 2025-11-25) asks for and what breaks when it is not done. Nothing to install: everything runs in this page, and the same scenario always gives the same trace.',
  pictureCaption: 'A timeline: the client cancels at 300 ms, the server would finish at 500 ms. Drag the cancel past the completion and the outcome changes.',
  pictureLabels: { client: 'client', server: 'server', cancel: 'cancel 300 ms', complete: 'complete 500 ms', playhead: 'playhead' },
  waysHeading: 'Three ways in',
  ways: [
    {
      id: 'learn',
      title: 'Learn, step by step',
      text: 'A guided path through the Races lab: short exercises that ask you to do something (drag the cancel after the completion, switch the transport) and tick themselves when the run shows it.',
      action: 'Start the guided path',
      href: '#/races/A-cancel-then-complete?guide=1',
    },
    {
      id: 'check',
      title: 'Check your own traffic',
      text: 'Import a transcript (Claude Desktop log, MCP Inspector export, JSON-RPC lines) on the Traffic page and check it against the rules the labs teach. From a terminal: npm run check -- FILE.',
      action: 'Open the Traffic page',
      href: '#/traffic',
    },
    {
      id: 'test',
      title: 'Test your client or server',
      text: 'Run a misbehaving MCP server for your client to meet (serve), or point a probing client at your server (probe); both record what happened in the format the Traffic page reads. See the README, “The lab meets real MCP software”.',
      action: 'Browse the labs first',
      href: '#/races',
    },
  ],
  labsHeading: 'The labs',
  sourcesHeading: 'Where the lessons come from',
  sourcesIntro: 'The scenarios reproduce three public documents, each in its own language, and the MCP specification:',
  sources: [
    { what: 'the lesson', title: 'Confiabilidad, cancelación y control de flujo de los MCP', where: 'AI Engineering from Scratch curriculum, phase 13 (Spanish)' },
    { what: 'the article', title: 'بناء عملاء MCP المتينين: إتقان مفاتيح الدائرة ومنطق إعادة المحاولة', where: 'on circuit breakers and retry logic for MCP clients (Arabic)' },
    { what: 'the postmortem', title: 'OpenAI 客户端取消传播连环炸：MCP Server 超时后我的重试逻辑为何雪崩', where: 'a retry storm after MCP server timeouts (Chinese)' },
  ],
  specLink: { label: 'The Model Context Protocol specification', href: 'https://modelcontextprotocol.io/specification' },
  resume: (name: string) => `Continue where you were: the ${name} lab`,
} as const;
