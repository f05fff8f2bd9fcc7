/**
 * A GET form marked `data-apply-on-change` (the search filters and sort) applies each change at
 * once, before and after the page's scripts have run (decision 060).
 *
 * The page sends this inline, right after the form, so it works from the moment the form can be
 * touched: the framework's scripts arrive later (decision 035), and a tick that waited for them was
 * lost. It builds the URL the form describes (empty fields and the default sort left out, as the
 * server writes its own links) and goes there: with `window.__applyForm` (set by the hydrated page,
 * SearchFormEnhancer) as a client navigation, before that as an ordinary one. Text fields
 * (type=search) apply on Enter, through the form's submit. It is the one place that turns the form
 * into a URL, for both cases.
 */
export const APPLY_ON_CHANGE_SOURCE = `(function(){var d=document;function url(f){var q=new URLSearchParams(),s=f.getAttribute('data-default-sort');new FormData(f).forEach(function(v,k){v=typeof v==='string'?v.trim():'';if(v&&!(k==='sort'&&v===s))q.append(k,v)});q=q.toString();return(f.getAttribute('action')||location.pathname)+(q?'?'+q:'')}function go(f,e){if(!f||!f.hasAttribute||!f.hasAttribute('data-apply-on-change'))return;if(e)e.preventDefault();var u=url(f);if(window.__applyForm)window.__applyForm(u,f);else location.assign(u)}d.addEventListener('change',function(e){var t=e.target;if(t&&t.type!=='search')go(t.form)});d.addEventListener('submit',function(e){go(e.target,e)})})()`;

/** The attribute that opts a GET form in; `data-default-sort` names the sort that goes unwritten. */
export const APPLY_ON_CHANGE_ATTRIBUTE = 'data-apply-on-change';

declare global {
  interface Window {
    /** Set by the hydrated page: navigate to a form's URL without a full load. */
    __applyForm?: (url: string, form: HTMLFormElement) => void;
  }
}
