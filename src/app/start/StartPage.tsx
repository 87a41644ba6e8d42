import { LABS } from '../router';
import { START_TEXT as T } from './startText';
import './start.css';

/** The schematic timeline of the Start page: Races A's cancel at 300 ms before the completion at 500 ms. */
function TimelinePicture() {
  const x = (ms: number) => 60 + ms * 0.5;
  const L = T.pictureLabels;
  return (
    <svg className="start-picture" viewBox="0 0 400 130" role="img" aria-labelledby="start-picture-caption">
      <line x1={x(0)} x2={x(640)} y1={34} y2={34} className="lane" />
      <line x1={x(0)} x2={x(640)} y1={94} y2={94} className="lane" />
      <text x={8} y={38} className="lane-label">{L.client}</text>
      <text x={8} y={98} className="lane-label">{L.server}</text>
      <rect x={x(0)} y={28} width={x(300) - x(0)} height={12} rx={3} className="span-client" />
      <rect x={x(20)} y={88} width={x(320) - x(20)} height={12} rx={3} className="span-server" />
      <line x1={x(300)} y1={40} x2={x(320)} y2={88} className="arrow" markerEnd="url(#start-arrow)" />
      <circle cx={x(300)} cy={34} r={6} className="handle" />
      <text x={x(300)} y={18} textAnchor="middle" className="mark-label">{L.cancel}</text>
      <circle cx={x(500)} cy={94} r={6} className="handle faint" />
      <text x={x(500)} y={122} textAnchor="middle" className="mark-label faint">{L.complete}</text>
      <line x1={x(400)} x2={x(400)} y1={10} y2={110} className="playhead" />
      <defs>
        <marker id="start-arrow" viewBox="0 0 10 10" refX={9} refY={5} markerWidth={6} markerHeight={6} orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" className="arrow-head" />
        </marker>
      </defs>
    </svg>
  );
}

/**
 * The Start page (`#/start`; `#/` on a first visit): what the lab is for and who it is for, three
 * ways in (learn, check your traffic, test your software), a picture of a timeline, the labs, and
 * where the source lesson, article and postmortem come from. A lazy chunk: the initial bundle only
 * holds the route.
 */
export function StartPage({ resume }: { resume?: { href: string; name: string } | null }) {
  return (
    <article className="start" aria-labelledby="start-h">
      <header className="start-head">
        <h1 id="start-h">{T.title}</h1>
        <p className="start-lead">{T.lead}</p>
        <p className="start-who">{T.who}</p>
        {resume && (
          <p>
            <a href={resume.href} data-testid="start-resume">
              {T.resume(resume.name)}
            </a>
          </p>
        )}
      </header>
      <figure className="start-figure">
        <TimelinePicture />
        <figcaption id="start-picture-caption">{T.pictureCaption}</figcaption>
      </figure>
      <section aria-labelledby="start-ways-h">
        <h2 id="start-ways-h">{T.waysHeading}</h2>
        <ul className="start-ways">
          {T.ways.map((w) => (
            <li key={w.id} className="start-way" data-testid={`start-way-${w.id}`}>
              <h3>{w.title}</h3>
              <p>{w.text}</p>
              <a className="start-action" href={w.href}>
                {w.action}
              </a>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="start-labs-h">
        <h2 id="start-labs-h">{T.labsHeading}</h2>
        <ul className="start-labs">
          {LABS.filter((l) => l.ready).map((l) => (
            <li key={l.id}>
              <a href={`#/${l.id}`}>{l.name}</a> — {l.blurb}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="start-sources-h">
        <h2 id="start-sources-h">{T.sourcesHeading}</h2>
        <p>{T.sourcesIntro}</p>
        <ul className="start-sources">
          {T.sources.map((s) => (
            <li key={s.what}>
              <strong>{s.what}</strong>: <cite lang={s.what === 'the lesson' ? 'es' : s.what === 'the article' ? 'ar' : 'zh'}>{s.title}</cite> — {s.where}
            </li>
          ))}
          <li>
            <a href={T.specLink.href} rel="noopener noreferrer" target="_blank">
              {T.specLink.label}
            </a>
          </li>
        </ul>
      </section>
    </article>
  );
}
