/**
 * The platform's HTTP layer (decision 063): every API route is written with one of its two
 * wrappers, visitorRoute (a website's own pages: the website from the Host, same-site writes) or
 * dealerRoute (the Dashboard API: a dealership's key), and answers with its errors and JSON
 * answers. Server code only; browser code that needs a message imports './errors' itself.
 */
export * from './errors';
export * from './response';
export * from './body';
export * from './params';
export * from './validation';
export * from './same-site';
export * from './dealer-auth';
export * from './dealer-route';
export * from './visitor-route';
export * from './origin';
