import { useI18n } from '../../i18n/i18n.tsx';
// oxlint-disable-next-line import/no-unassigned-import -- plain CSS, bundled by Vite with this module
import './catalogue.css';
import { CatalogueSections } from './catalogue-sections.tsx';
import { samples } from './samples.ts';

/**
 * The design system's catalogue (`/_catalogue`, development builds only: router.tsx adds the route under
 * `import.meta.env.DEV`, so a production build contains neither the route nor this code). Every component,
 * side by side in the light and the dark scheme; the language is the console's (the top bar's switcher).
 * The design's screenshots come from here (e2e/catalogue.shots.ts).
 */
export function CatalogueRoute() {
  const { locale } = useI18n();
  const s = samples(locale);
  return (
    <div className="catalogue">
      <header className="catalogue__intro">
        <h1>{s.title}</h1>
        <p>{s.note}</p>
      </header>
      <div className="catalogue__schemes">
        {(['light', 'dark'] as const).map((scheme) => (
          <section key={scheme} className={`catalogue__scheme theme-${scheme}`} aria-label={scheme} data-scheme={scheme}>
            <CatalogueSections scheme={scheme} />
          </section>
        ))}
      </div>
    </div>
  );
}
